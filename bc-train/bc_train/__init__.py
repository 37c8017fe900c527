"""bc_train."""
