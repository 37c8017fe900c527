"""What the adapters' reclassification scripts share (scripts/rg_reclassify.py, scripts/rc_reclassify.py): run
the conformance suite on one adapted bootcamp, and write the adapter's generated `withheld.py` with its three
tables.

    result = measure("rc", "arithmetics", answer_space=space_of, extra_checks={"deterministic": check})
    write_tables(path, header, results, key="task", keep=previous_tables)

`withheld.py` holds WITHHELD (name -> the failing checks with their numbers: the bootcamp is withheld by
default), LABELS (name -> k: its default answers are a decision among k labels that the answer balance keeps
uniform, declared as the suite's `actions`) and SMALL (name -> why: its answers repeat, declared as the suite's
`small_answer_space`). A bootcamp's answer space is measured before its checks and declared for them, so the
run checks what the written tables will declare.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["REASON_CHARS", "TABLES", "measure", "reason", "summary", "tables_results", "write_tables"]

REASON_CHARS = 300  # per failing check: the check's name and the start of its message (the numbers come first)
TABLES = ("WITHHELD", "LABELS", "SMALL")
COMMENTS = {
    "LABELS": "# default answers that are a decision among k labels (the answer balance keeps them uniform): the\n"
              "# conformance suite's `actions` (a constant answer may earn 1/k)",
    "SMALL": "# default answers that repeat within the training sample (the answer balance flattens them): the\n"
             "# conformance suite's `small_answer_space` (answers balanced instead of never repeated)",
}
TYPES = {"WITHHELD": "dict[str, str]", "LABELS": "dict[str, int]", "SMALL": "dict[str, str]"}


def measure(prefix: str, name: str, *, key: str, tables: Any,
            answer_space: Callable[[str], tuple[int | None, str | None]],
            extra_checks: dict[str, Callable[[str], None]] | None = None, every_check: bool = False) -> dict:
    """The checks of `prefix`/`name` up to the first failure (signal checks first, then `extra_checks`, then the
    attack checks), or every check. `answer_space(name)` gives (k labels, small-space reason) of its default
    group; they are set in the `tables` module (LABELS, SMALL) before the manifest is read.
    Returns {key: name, "seconds", "failures": {check: message}, "check_seconds", "labels", "small"}."""
    os.environ["BC_INCLUDE_KNOWN_ISSUES"] = "1"
    from bc_common.conformance import ATTACK_CHECKS, Conformance
    from bc_common.conformance.signal import SIGNAL_CHECKS

    started = time.perf_counter()
    failures: dict[str, str] = {}
    seconds: dict[str, float] = {}
    try:
        labels, small = answer_space(name)
    except Exception:  # noqa: BLE001  (a bootcamp that cannot make items: its checks say why)
        labels, small = None, None
    for table, value in ((tables.LABELS, labels), (tables.SMALL, small)):
        if value:
            table[name] = value
        else:
            table.pop(name, None)
    result = {key: name, "seconds": 0.0, "failures": failures, "check_seconds": seconds, "labels": labels,
              "small": small}
    try:
        conformance = Conformance(f"{prefix}/{name}")
    except Exception as exc:  # noqa: BLE001  (unavailable here: the reason is the classification)
        failures["available"] = str(exc)[:REASON_CHARS]
        return result
    extra = extra_checks or {}
    for check in [*SIGNAL_CHECKS, *extra, *ATTACK_CHECKS]:
        began = time.perf_counter()
        try:
            if check in extra:
                extra[check](name)
            else:
                conformance.check(check)
        except AssertionError as exc:
            failures[check] = str(exc).removeprefix(f"{prefix}/{name}: {check}: ")
        except Exception as exc:  # noqa: BLE001  (a bootcamp that cannot make its rows fails the check that asked)
            failures[check] = f"{type(exc).__name__}: {exc}"
        finally:
            seconds[check] = round(time.perf_counter() - began, 1)
        if failures and not every_check:
            break
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def reason(failures: dict[str, str]) -> str:
    return "; ".join(f"{check}: {message[:REASON_CHARS]}" for check, message in failures.items())


def write_tables(path: Path, header: str, results: list[dict], *, key: str,
                 keep: dict[str, dict] | None = None) -> int:
    """Write `path` (a withheld.py) from `results`; `keep` (table -> {name: value}) holds the entries of names not
    measured (a result whose bootcamp could not run here, failure `available`, counts as not measured). Returns
    how many are withheld."""
    results = [r for r in results if "available" not in r["failures"]]  # could not run here: not classified
    measured = {r[key] for r in results}
    tables: dict[str, dict] = {t: {n: v for n, v in (keep or {}).get(t, {}).items() if n not in measured}
                               for t in TABLES}
    for r in results:
        if r["failures"]:
            tables["WITHHELD"][r[key]] = reason(r["failures"])
        if r.get("labels"):
            tables["LABELS"][r[key]] = r["labels"]
        if r.get("small"):
            tables["SMALL"][r[key]] = r["small"]
    lines = [header.rstrip("\n"), ""]
    for table in TABLES:
        if table in COMMENTS:
            lines += ["", COMMENTS[table]]  # after the previous table
        lines.append(f"{table}: {TYPES[table]} = {{")
        lines += [f"    {name!r}: {value!r}," for name, value in sorted(tables[table].items())]
        lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    return len(tables["WITHHELD"])


def tables_results(names: list[str], tables: Any, *, key: str,
                   unavailable: dict[str, str] | None = None) -> list[dict]:
    """The classification a written `withheld.py` holds, as results `summary` reads: each name's first failing
    check (the start of its WITHHELD reason) and its k labels, `available` for the names in `unavailable`. A run
    that measured some names only (`update`) still gives the README the whole classification."""
    results = []
    for name in names:
        failures: dict[str, str] = {}
        if name in (unavailable or {}):
            failures["available"] = unavailable[name]
        elif name in tables.WITHHELD:
            check, _, message = tables.WITHHELD[name].partition(": ")
            failures[check] = message
        results.append({key: name, "failures": failures, "labels": tables.LABELS.get(name),
                        "small": tables.SMALL.get(name)})
    return results


def summary(results: list[dict], *, key: str) -> str:
    """A README's classification in markdown: the names that pass every check (decisions marked with their k),
    then a table of the others by first failing check."""
    unavailable = sorted(r[key] for r in results if "available" in r["failures"])
    results = [r for r in results if "available" not in r["failures"]]
    passing = sorted((r[key], r.get("labels")) for r in results if not r["failures"])
    by_check: dict[str, list[str]] = {}
    for r in results:
        if r["failures"]:
            by_check.setdefault(next(iter(r["failures"])), []).append(r[key])
    names = ", ".join(f"{name} (k={k})" if k else name for name, k in passing)
    lines = [f"{len(passing)} of {len(results)} pass every check: {names}.", "",
             "| first failing check | names |", "|---|---|"]
    for check, failed in sorted(by_check.items(), key=lambda item: (-len(item[1]), item[0])):
        lines.append(f"| {check} ({len(failed)}) | {', '.join(sorted(failed))} |")
    if unavailable:
        lines += ["", f"Not classified (cannot run here): {', '.join(unavailable)}."]
    return "\n".join(lines)
