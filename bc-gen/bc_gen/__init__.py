"""bc_gen."""
