"""bc_train: verl 0.9.1 training runs (GRPO with tools and feedback turns; SFT) from bootcamp data."""
