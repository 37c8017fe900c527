"""bc_toolserve."""
