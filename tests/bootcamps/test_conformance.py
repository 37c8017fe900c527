"""The installable conformance suite (bc_common.conformance) over every available bootcamp.

`BC_BOOTCAMPS=a,b pytest tests/bootcamps` restricts it; a third-party bootcamp package runs the same suite with
`test_conformance = bc_common.conformance.pytest_suite(["theirs"])`. Without BC_BOOTCAMPS the adapters (bootcamps
of a collection, named `prefix/name`) are sampled to keep CI within budget: rg/* by name (RG_SAMPLE), every other
collection (rc/*, ...) whole but at CI_SIZES; `make test-adapters-full` (BC_ADAPTERS_FULL=1) runs every one at the
sizes its manifest states. The signal checks' current failures of own bootcamps are listed, with their measured
numbers, in signal_expected.py (expected failures until the bootcamps are fixed).
"""
import dataclasses
import importlib.util
import os

import pytest

from bc_common.catalog import get_bootcamp
from bc_common.conformance import CHECKS, Conformance, known_issues, pytest_suite, selected_bootcamps
from tests.adapter_samples import RG_SAMPLE
from tests.bootcamps.signal_expected import EXPECTED, SAMPLE_SIZES

ADAPTER_SAMPLES = {"rg": RG_SAMPLE}  # collections CI samples by name, at their manifests' sizes
# every bootcamp of another collection: attack checks on `n` tasks, signal checks on `signal_n` per group and policy
# (the suite's least), distinctness on `distinct_n` rows
CI_SIZES = {"n": 10, "signal_n": 20, "distinct_n": 20}


def chosen() -> tuple[list[str], list[str]]:
    """(bootcamps at their manifests' sizes, adapters at CI_SIZES)."""
    names = selected_bootcamps()
    if os.environ.get("BC_BOOTCAMPS") or os.environ.get("BC_ADAPTERS_FULL"):
        return names, []
    full, small = [], []
    for name in names:
        collection = name.partition("/")[0] if "/" in name else None
        if collection is None or name in ADAPTER_SAMPLES.get(collection, ()):
            full.append(name)
        elif collection not in ADAPTER_SAMPLES:
            small.append(name)
    return full, small


FULL, SMALL = chosen()
test_conformance = pytest_suite(FULL, expected=EXPECTED, sample_sizes=SAMPLE_SIZES)

_SMALL: dict[str, Conformance] = {}


def at_ci_sizes(name: str) -> Conformance:
    """The suite of `name` on CI_SIZES (its manifest's sizes replaced; played once per process)."""
    if name not in _SMALL:
        manifest = get_bootcamp(name)
        sizes = {k: v for k, v in CI_SIZES.items() if k != "n"}
        small = dataclasses.replace(manifest, conformance={**manifest.conformance, **sizes})
        _SMALL[name] = Conformance(small, n=CI_SIZES["n"])
    return _SMALL[name]


def _params(names: list[str]) -> list:
    grouped = importlib.util.find_spec("xdist") is not None  # a bootcamp's checks share one worker and its runs
    params = []
    for name in names:
        issues = known_issues(name)
        for check in CHECKS:
            marks = [pytest.mark.xfail(reason=f"known issue: {issues[check]}", strict=False)] if check in issues else []
            if grouped:
                marks.append(pytest.mark.xdist_group(name))
            params.append(pytest.param(name, check, marks=marks, id=f"{name}-{check}"))
    return params


@pytest.mark.parametrize(("bootcamp", "check"), _params(SMALL))
def test_adapter_conformance_at_ci_sizes(bootcamp: str, check: str) -> None:
    at_ci_sizes(bootcamp).check(check)
