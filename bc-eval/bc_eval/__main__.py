"""`python -m bc_eval ...` runs `bc-eval ...` (as the seed's `python -m ...run_evaluation` did)."""
from .cli import main

main(prog_name="bc-eval")
