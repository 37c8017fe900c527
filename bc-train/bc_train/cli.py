"""bc-train (being built)."""
import sys


def main():
    print("bc-train: not implemented yet", file=sys.stderr)
    sys.exit(1)
