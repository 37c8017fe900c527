"""bc_common."""
