"""bc-eval (being built)."""
import sys


def main():
    print("bc-eval: not implemented yet", file=sys.stderr)
    sys.exit(1)
