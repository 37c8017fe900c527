"""bc_eval."""
