"""The installable conformance suite (bc_common.conformance) over every available bootcamp.

`BC_BOOTCAMPS=a,b pytest tests/bootcamps` restricts it; a third-party bootcamp package runs the same suite with
`test_conformance = bc_common.conformance.pytest_suite(["theirs"])`.
"""
from bc_common.conformance import pytest_suite

test_conformance = pytest_suite()
