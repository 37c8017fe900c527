"""bc-toolserve (being built)."""
import sys


def main():
    print("bc-toolserve: not implemented yet", file=sys.stderr)
    sys.exit(1)
