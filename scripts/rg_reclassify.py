"""Reclassify the rg/<dataset> bootcamps with the whole conformance suite (signal and attack checks, >= 50 items
each) and write bootcamps/rg/withheld.py: the datasets that fail a check, with the failing checks and their
measured numbers.

    python scripts/rg_reclassify.py measure leg_counting ...   # one JSON line per dataset on stdout (to the first
                                                                # failing check; --every-check: every check)
    python scripts/rg_reclassify.py write results.jsonl        # -> bootcamps/rg/withheld.py (these datasets only)
    python scripts/rg_reclassify.py update results.jsonl       # the measured datasets replaced in withheld.py
    make rg-reclassify                                          # measure + write, every dataset (about an hour on 2 cores)
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import orjson

WITHHELD = Path(__file__).resolve().parent.parent / "bootcamps" / "rg" / "withheld.py"
HEADER = '''"""rg datasets withheld by default: each fails a check of the conformance suite (attack or signal) on the
reclassification sample; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway. Written by scripts/rg_reclassify.py
(dataset -> the failing checks with their measured numbers); do not edit by hand, run the script."""
from __future__ import annotations
'''
REASON_CHARS = 300  # per failing check: the check's name and the start of its message (the numbers come first)


def measure(name: str, every_check: bool = False) -> dict:
    """The checks of rg/<name> up to the first failure (signal checks first: they are what withholds most, and
    the slow attack checks are then skipped), or every check: {"dataset", "seconds", "failures": {check: message},
    "check_seconds": {check: seconds}}."""
    os.environ["BC_INCLUDE_KNOWN_ISSUES"] = "1"
    from bc_common.conformance import ATTACK_CHECKS, Conformance
    from bc_common.conformance.signal import SIGNAL_CHECKS

    started = time.perf_counter()
    conformance = Conformance(f"rg/{name}")
    failures, seconds = {}, {}
    for check in SIGNAL_CHECKS + ATTACK_CHECKS:
        began = time.perf_counter()
        try:
            conformance.check(check)
        except AssertionError as exc:
            failures[check] = str(exc).removeprefix(f"rg/{name}: {check}: ")
        finally:
            seconds[check] = round(time.perf_counter() - began, 1)
        if failures and not every_check:
            break
    return {"dataset": name, "seconds": round(time.perf_counter() - started, 1), "failures": failures,
            "check_seconds": seconds}


def reason(failures: dict[str, str]) -> str:
    return "; ".join(f"{check}: {message[:REASON_CHARS]}" for check, message in failures.items())


def write(results: list[dict], path: Path = WITHHELD, keep: dict[str, str] | None = None) -> int:
    """Write withheld.py from `results`; `keep` (dataset -> reason) holds the entries of datasets not measured."""
    measured = {r["dataset"] for r in results}
    withheld = {name: text for name, text in (keep or {}).items() if name not in measured}
    withheld.update({r["dataset"]: reason(r["failures"]) for r in results if r["failures"]})
    withheld = dict(sorted(withheld.items()))
    lines = [HEADER, "WITHHELD: dict[str, str] = {"]
    lines += [f"    {name!r}: {text!r}," for name, text in withheld.items()]
    lines.append("}\n")
    path.write_text("\n".join(lines))
    return len(withheld)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "measure":
        every_check = "--every-check" in argv
        for name in (a for a in argv[1:] if a != "--every-check"):
            sys.stdout.write(orjson.dumps(measure(name, every_check)).decode() + "\n")
            sys.stdout.flush()
        return 0
    if len(argv) == 2 and argv[0] in ("write", "update"):
        results = [orjson.loads(line) for line in Path(argv[1]).read_bytes().splitlines() if line.strip()]
        keep = None
        if argv[0] == "update":
            from bootcamps.rg.withheld import WITHHELD as keep
        count = write(results, keep=keep)
        print(f"rg_reclassify: {count} datasets withheld ({len(results)} measured) -> {WITHHELD}", file=sys.stderr)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
