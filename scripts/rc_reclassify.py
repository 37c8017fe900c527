"""Reclassify the rc/<task> bootcamps with the whole conformance suite (signal and attack checks, 50 items each)
and a cross-process determinism check, and write bootcamps/rc/withheld.py: the tasks that fail a check, with the
failing checks and their measured numbers.

    python scripts/rc_reclassify.py measure arithmetics ...    # one JSON line per task on stdout (to the first
                                                                # failing check; --every-check: every check)
    python scripts/rc_reclassify.py write results.jsonl         # -> bootcamps/rc/withheld.py (these tasks only)
    python scripts/rc_reclassify.py update results.jsonl        # the measured tasks replaced in withheld.py
    python scripts/rc_reclassify.py summary results.jsonl       # the README's classification (markdown)
    python scripts/rc_reclassify.py summary                     # the same, from withheld.py as written
    make rc-reclassify                                           # measure + write, every task
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
WITHHELD = ROOT / "bootcamps" / "rc" / "withheld.py"
HEADER = '''"""rc tasks withheld by default: each fails a check of the conformance suite (attack or signal) or the
cross-process determinism check on the reclassification sample; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway.
With them, what the tasks' answers are (bc_common.reclassify). Written by scripts/rc_reclassify.py (task -> the
failing checks with their measured numbers); do not edit by hand, run the script."""
from __future__ import annotations
'''
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


def answer_space(name: str) -> tuple[int | None, str | None]:
    """(k, None) when the default group's answers are a decision among k labels (bootcamps/rc/balance.py);
    (None, why) when its training sample repeats answers (a small space the balance flattens); else (None, None)."""
    from bc_common.answer_balance import small_space
    from bootcamps.rc import balance, tasks
    from bootcamps.rc.tasks import config_class

    config = config_class(name)(**tasks.default_params(name))  # the default group's
    params = {f: getattr(config, f) for f in config.__dataclass_fields__ if f != "level"}
    key = balance.config_key(params)
    k = balance.balance(name, key, config.level).labels
    return k, None if k else small_space(balance.training_answers(name, key, config.level))


def measure(name: str, every_check: bool = False) -> dict:
    """The checks of rc/<name> up to the first failure (signal checks first, then determinism, then the attack
    checks), or every check (bc_common.reclassify.measure)."""
    from bc_common.reclassify import measure as run
    from bootcamps.rc import withheld

    return run("rc", name, key="task", tables=withheld, answer_space=answer_space, every_check=every_check,
               extra_checks={"deterministic_across_processes": deterministic_across_processes})


def write(results: list[dict], path: Path = WITHHELD, keep: dict[str, dict] | None = None) -> int:
    """Write withheld.py from `results`; `keep` (table -> {task: value}) holds the entries of tasks not measured."""
    from bc_common.reclassify import write_tables

    return write_tables(path, HEADER, results, key="task", keep=keep)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "measure":
        every_check = "--every-check" in argv
        for name in (a for a in argv[1:] if a != "--every-check"):
            sys.stdout.write(orjson.dumps(measure(name, every_check)).decode() + "\n")
            sys.stdout.flush()
        return 0
    if argv[:1] == ["summary"] and len(argv) <= 2:
        from bc_common.reclassify import summary, tables_results

        if len(argv) == 2:
            results = [orjson.loads(line) for line in Path(argv[1]).read_bytes().splitlines() if line.strip()]
        else:
            from bootcamps.rc import tasks, withheld
            from bootcamps.rc.known_issues import missing_need

            names = tasks.roster()
            unavailable = {n: need for n in names if (need := missing_need(n)) is not None}
            results = tables_results(names, withheld, key="task", unavailable=unavailable)
        print(summary(results, key="task"))
        return 0
    if len(argv) == 2 and argv[0] in ("write", "update"):
        results = [orjson.loads(line) for line in Path(argv[1]).read_bytes().splitlines() if line.strip()]
        keep = None
        if argv[0] == "update":
            from bootcamps.rc import withheld

            keep = {"WITHHELD": withheld.WITHHELD, "LABELS": withheld.LABELS, "SMALL": withheld.SMALL}
        count = write(results, keep=keep)
        print(f"rc_reclassify: {count} tasks withheld ({len(results)} measured) -> {WITHHELD}", file=sys.stderr)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
