"""Why a check stops: verl missing (exit 3) or a named step failing."""
from __future__ import annotations

from bc_common.cli import EXTRA_MISSING
from bc_common.errors import BcError


class VerlMissing(BcError):
    """verl (the `verl` extra) is not installed: exit 3, the code EXIT_CODES gives it."""

    exit_code = EXTRA_MISSING


class CheckFailed(Exception):
    def __init__(self, step: str, message: str):
        self.step, self.message = step, message
        super().__init__(f"{step}: {message}")


def require_verl() -> None:
    try:
        import verl  # noqa: F401
    except ImportError:
        raise VerlMissing("--check needs verl 0.9.1: pip install -e '.[verl]' "
                          "(pip install torch==2.13.0 'verl[verl-core]==0.9.1' works on CPU)") from None
