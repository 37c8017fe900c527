import pytest

from bc_common.sandbox import workspace


@pytest.fixture
def ws():
    """A fresh workspace that a sandboxed run's user can reach (pytest's tmp_path is private to root)."""
    with workspace(prefix="bc-test-") as folder:
        yield folder
