"""Reclassify the rg/<dataset> bootcamps with the whole conformance suite (signal and attack checks, >= 50 items
each) and write bootcamps/rg/withheld.py: the datasets that fail a check, with the failing checks and their
measured numbers.

    python scripts/rg_reclassify.py measure leg_counting ...   # one JSON line per dataset on stdout (to the first
                                                                # failing check; --every-check: every check)
    python scripts/rg_reclassify.py write results.jsonl        # -> bootcamps/rg/withheld.py (these datasets only)
    python scripts/rg_reclassify.py update results.jsonl       # the measured datasets replaced in withheld.py
    python scripts/rg_reclassify.py summary results.jsonl      # the README's classification (markdown)
    python scripts/rg_reclassify.py summary                    # the same, from withheld.py as written
    make rg-reclassify                                          # measure + write, every dataset (about an hour on 2 cores)
"""
from __future__ import annotations

import sys
from pathlib import Path

import orjson

WITHHELD = Path(__file__).resolve().parent.parent / "bootcamps" / "rg" / "withheld.py"
HEADER = '''"""rg datasets withheld by default: each fails a check of the conformance suite (attack or signal) on the
reclassification sample; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway. With them, what the datasets' answers are
(bc_common.reclassify). Written by scripts/rg_reclassify.py (dataset -> the failing checks with their measured
numbers); do not edit by hand, run the script."""
from __future__ import annotations
'''


def answer_space(name: str) -> tuple[int | None, str | None]:
    """(k, None) when the default group's answers are a decision among k labels (bootcamps/rg/balance.py);
    (None, why) when its training sample repeats answers (a small space the balance flattens); else (None, None).
    rg/composite is not balanced (its rows draw a dataset each)."""
    from bc_common.answer_balance import small_space
    from bootcamps.rg import balance, datasets
    from bootcamps.rg.entry_json import to_json

    if name == datasets.COMPOSITE:
        return None, None
    params = datasets.parse_params(name, datasets.default_params(name), f"rg/{name} default group")
    config, _ = to_json(datasets.jsonable(params))
    key = balance.config_key(config)
    k = balance.balance(name, key).labels
    return k, None if k else small_space(balance.training_answers(name, key))


def measure(name: str, every_check: bool = False) -> dict:
    """The checks of rg/<name> up to the first failure (signal checks first: they are what withholds most, and
    the slow attack checks are then skipped), or every check (bc_common.reclassify.measure)."""
    from bc_common.reclassify import measure as run
    from bootcamps.rg import withheld

    return run("rg", name, key="dataset", tables=withheld, answer_space=answer_space, every_check=every_check)


def write(results: list[dict], path: Path = WITHHELD, keep: dict[str, dict] | None = None) -> int:
    """Write withheld.py from `results`; `keep` (table -> {dataset: value}) holds the entries of datasets not
    measured."""
    from bc_common.reclassify import write_tables

    return write_tables(path, HEADER, results, key="dataset", keep=keep)


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
            from bootcamps.rg import datasets, withheld

            results = tables_results(datasets.names(), withheld, key="dataset")
        print(summary(results, key="dataset"))
        return 0
    if len(argv) == 2 and argv[0] in ("write", "update"):
        results = [orjson.loads(line) for line in Path(argv[1]).read_bytes().splitlines() if line.strip()]
        keep = None
        if argv[0] == "update":
            from bootcamps.rg import withheld

            keep = {"WITHHELD": withheld.WITHHELD, "LABELS": withheld.LABELS, "SMALL": withheld.SMALL}
        count = write(results, keep=keep)
        print(f"rg_reclassify: {count} datasets withheld ({len(results)} measured) -> {WITHHELD}", file=sys.stderr)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
