"""Reclassify the rc/<task> bootcamps with the whole conformance suite (signal and attack checks, 50 items each)
and a cross-process determinism check, and write bootcamps/rc/withheld.py: the tasks that fail a check, with the
failing checks and their measured numbers.

    python scripts/rc_reclassify.py measure arithmetics ...    # one JSON line per task on stdout (to the first
                                                                # failing check; --every-check: every check)
    python scripts/rc_reclassify.py write results.jsonl         # -> bootcamps/rc/withheld.py (these tasks only)
    python scripts/rc_reclassify.py update results.jsonl        # the measured tasks replaced in withheld.py
    make rc-reclassify                                           # measure + write, every task
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
WITHHELD = ROOT / "bootcamps" / "rc" / "withheld.py"
HEADER = '''"""rc tasks withheld by default: each fails a check of the conformance suite (attack or signal) or the
cross-process determinism check on the reclassification sample; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway.
Written by scripts/rc_reclassify.py (task -> the failing checks with their measured numbers); do not edit by hand,
run the script."""
from __future__ import annotations
'''
LABELS_COMMENT = ("# tasks whose default answers are a decision among k labels (bootcamps/rc/balance.py keeps them "
                  "uniform): the\n# conformance suite's `actions` (a constant answer may earn 1/k)")
SMALL_COMMENT = ("# tasks whose default answers repeat within the training sample (the answer balance flattens them): "
                 "the\n# conformance suite's `small_answer_space` (answers balanced instead of never repeated)")
REASON_CHARS = 300  # per failing check: the check's name and the start of its message (the numbers come first)
DETERMINISM_ROWS = 6  # rows made in two processes (other hash seeds, opposite orders) and compared byte for byte
_ROWS_SCRIPT = """
import sys
from bc_common.catalog import get_bootcamp
from bc_common.seeding import canonical_json
from bc_common.tasks import TaskSet
name, n, order = sys.argv[1], int(sys.argv[2]), sys.argv[3]
tasks = TaskSet(get_bootcamp(name), seed=5, split="determinism")
indices = range(n) if order == "forward" else range(n - 1, -1, -1)
rows = {i: tasks[i] for i in indices}
for i in range(n):
    sys.stdout.buffer.write(canonical_json(rows[i]) + b"\\n")
"""


def deterministic_across_processes(name: str) -> None:
    """Rows 0..5 made in two fresh processes (hash seeds 1 and 2, opposite orders) must be the same bytes."""
    outputs = []
    for hash_seed, order in (("1", "forward"), ("2", "reverse")):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, BC_INCLUDE_KNOWN_ISSUES="1")
        done = subprocess.run([sys.executable, "-c", _ROWS_SCRIPT, f"rc/{name}", str(DETERMINISM_ROWS), order],
                              capture_output=True, env=env, timeout=600, check=False)
        if done.returncode != 0:
            raise AssertionError(f"making {DETERMINISM_ROWS} rows failed: {done.stderr.decode()[-300:]}")
        outputs.append(done.stdout.splitlines())
    differ = [i for i, (a, b) in enumerate(zip(*outputs, strict=True)) if a != b]
    if differ:
        raise AssertionError(f"{len(differ)} of {DETERMINISM_ROWS} rows differ between two processes (other hash "
                             f"seed, opposite order): rows {differ}; same seed must give the same bytes")


def measure(name: str, every_check: bool = False) -> dict:
    """The checks of rc/<name> up to the first failure (signal checks first, then determinism, then the attack
    checks), or every check: {"task", "seconds", "failures": {check: message}, "check_seconds": {check: s}}."""
    os.environ["BC_INCLUDE_KNOWN_ISSUES"] = "1"
    from bc_common.conformance import ATTACK_CHECKS, Conformance
    from bc_common.conformance.signal import SIGNAL_CHECKS

    started = time.perf_counter()
    failures, seconds = {}, {}
    labels, small = answer_space(name)
    try:
        conformance = Conformance(f"rc/{name}")
    except Exception as exc:  # noqa: BLE001  (unavailable here: the reason is the classification)
        return {"task": name, "seconds": 0.0, "failures": {"available": str(exc)[:REASON_CHARS]}, "check_seconds": {}}
    checks = list(SIGNAL_CHECKS) + ["deterministic_across_processes"] + list(ATTACK_CHECKS)
    for check in checks:
        began = time.perf_counter()
        try:
            if check == "deterministic_across_processes":
                deterministic_across_processes(name)
            else:
                conformance.check(check)
        except AssertionError as exc:
            failures[check] = str(exc).removeprefix(f"rc/{name}: {check}: ")
        except Exception as exc:  # noqa: BLE001  (a task that cannot make its rows fails the check that asked)
            failures[check] = f"{type(exc).__name__}: {exc}"
        finally:
            seconds[check] = round(time.perf_counter() - began, 1)
        if failures and not every_check:
            break
    return {"task": name, "seconds": round(time.perf_counter() - started, 1), "failures": failures,
            "check_seconds": seconds, "labels": labels, "small": small}


def answer_space(name: str) -> tuple[int | None, str | None]:
    """(k, None) when the default group's answers are a decision among k labels (bootcamps/rc/balance.py);
    (None, why) when its training sample repeats answers (a small space the balance flattens); else (None, None).
    Declared for this run (the conformance suite's `actions` / `small_answer_space`) and written to withheld.py's
    LABELS / SMALL by `write`."""
    try:
        from bootcamps.rc import balance, withheld
        from bootcamps.rc.tasks import config_class

        config = config_class(name)()
        params = {f: getattr(config, f) for f in config.__dataclass_fields__ if f != "level"}
        key = balance.config_key(params)
        k = balance.balance(name, key, config.level).labels
        small = None if k else balance.repeats(balance.training_answers(name, key, config.level))
    except Exception:  # noqa: BLE001  (a task that cannot run: its checks say why)
        return None, None
    for table, value in ((withheld.LABELS, k), (withheld.SMALL, small)):
        if value:
            table[name] = value
        else:
            table.pop(name, None)
    return k, small


def reason(failures: dict[str, str]) -> str:
    return "; ".join(f"{check}: {message[:REASON_CHARS]}" for check, message in failures.items())


def write(results: list[dict], path: Path = WITHHELD, keep: dict[str, str] | None = None,
          keep_labels: dict[str, int] | None = None, keep_small: dict[str, str] | None = None) -> int:
    """Write withheld.py from `results`; `keep` (task -> reason), `keep_labels` (task -> k) and `keep_small`
    (task -> why) hold the entries of tasks not measured."""
    measured = {r["task"] for r in results}
    withheld = {name: text for name, text in (keep or {}).items() if name not in measured}
    withheld.update({r["task"]: reason(r["failures"]) for r in results if r["failures"]})
    withheld = dict(sorted(withheld.items()))
    labels = {name: k for name, k in (keep_labels or {}).items() if name not in measured}
    labels.update({r["task"]: r["labels"] for r in results if r.get("labels")})
    small = {name: why for name, why in (keep_small or {}).items() if name not in measured}
    small.update({r["task"]: r["small"] for r in results if r.get("small")})
    lines = [HEADER, "WITHHELD: dict[str, str] = {"]
    lines += [f"    {name!r}: {text!r}," for name, text in withheld.items()]
    lines.append("}")
    lines += ["", LABELS_COMMENT, "LABELS: dict[str, int] = {"]
    lines += [f"    {name!r}: {k}," for name, k in sorted(labels.items())]
    lines.append("}")
    lines += ["", SMALL_COMMENT, "SMALL: dict[str, str] = {"]
    lines += [f"    {name!r}: {why!r}," for name, why in sorted(small.items())]
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
        keep = keep_labels = keep_small = None
        if argv[0] == "update":
            from bootcamps.rc.withheld import LABELS as keep_labels
            from bootcamps.rc.withheld import SMALL as keep_small
            from bootcamps.rc.withheld import WITHHELD as keep
        count = write(results, keep=keep, keep_labels=keep_labels, keep_small=keep_small)
        print(f"rc_reclassify: {count} tasks withheld ({len(results)} measured) -> {WITHHELD}", file=sys.stderr)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
