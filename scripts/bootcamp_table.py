"""Regenerate the measured table of docs/bootcamps.md from runs: per bootcamp and group, the reference's, noisy's
and each declared baseline's mean reward and success, the distinct-prompt rate and the generation rate.

    python scripts/bootcamp_table.py                      # every available own bootcamp (rg/, rc/, ta/ excluded)
    python scripts/bootcamp_table.py arithmetic noop -o -  # some of them, the table to stdout
    make bootcamp-table

Policies play the conformance suite's signal sample (`bc_common.conformance.signal`: `signal_n` seeded tasks per
group, through the rollout loop bc-eval runs); distinctness and rows/s come from `--distinct-n` rows per group.
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import click
import orjson

from bc_common.catalog import available, get_bootcamp
from bc_common.conformance.signal import NOISY, REFERENCE, Signal
from bc_common.tasks import TaskSet

DOC = Path(__file__).resolve().parent.parent / "docs" / "bootcamps.md"
START, END = "<!-- bootcamp-table:start -->", "<!-- bootcamp-table:end -->"


def _cell(trajectories: list[dict]) -> str:
    scores = [float(t.get("score") or 0.0) for t in trajectories]
    success = sum(s >= 1.0 for s in scores) / max(len(scores), 1)
    return f"{sum(scores) / max(len(scores), 1):.2f} / {success:.0%}"


def rows_of(name: str, distinct_n: int | None, signal_n: int | None = None) -> list[list[str]]:
    """One table row per group of `name`; `distinct_n` None: the rows the suite counts (the manifest's
    `distinct_n`, else 1,000)."""
    bootcamp = get_bootcamp(name)
    signal = Signal(bootcamp, sample_sizes={"signal_n": signal_n} if signal_n else None)
    distinct_n = distinct_n or signal.distinct_n
    ref, noisy = signal.runs(REFERENCE), signal.runs(NOISY)
    baselines = {b.name: signal.runs(f"builtin:baseline/{b.name}") for b in bootcamp.baselines}
    out = []
    for g in signal.groups:
        tasks = TaskSet(bootcamp, seed=signal.seed, split="distinct", groups=[g.name])
        started = time.perf_counter()
        prompts = {orjson.dumps(tasks[i]["prompt"]) for i in range(distinct_n)}
        rate = distinct_n / (time.perf_counter() - started)
        cells = ", ".join(f"{b} {_cell(runs[g.name])}" for b, runs in baselines.items()) or "none declared"
        out.append([f"`{name}`", g.name, str(len(ref[g.name])), _cell(ref[g.name]), _cell(noisy[g.name]), cells,
                    f"{len(prompts) / distinct_n:.1%} of {distinct_n:,}", f"{rate:,.1f}"])
    return out


def table(names: list[str], distinct_n: int | None, signal_n: int | None = None) -> str:
    head = ["bootcamp", "group", "n", "reference", "noisy", "baselines", "distinct prompts", "rows/s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        click.echo(f"bootcamp_table: {name}", err=True)
        lines += ["| " + " | ".join(row) + " |" for row in rows_of(name, distinct_n, signal_n)]
    note = ("Cells are mean reward / success (score 1.0) over the conformance suite's signal sample (n tasks per "
            "group, seed 11); distinct prompts and rows/s (one process, row dicts built by "
            "`bc_common.tasks.TaskSet`) over the rows per group the cell names (the suite's `distinct_n`: 1,000 "
            "unless a slow generator's manifest says fewer). Regenerate with `make bootcamp-table`.")
    return "\n".join(lines) + "\n\n" + note + "\n"


def replace_section(doc: str, body: str) -> str:
    """`doc` with the text between the table markers replaced by `body` (markers appended when missing)."""
    block = f"{START}\n{body}{END}"
    if START in doc and END in doc:
        return re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, doc, flags=re.S)
    return doc.rstrip("\n") + "\n\n" + block + "\n"


@click.command()
@click.argument("names", nargs=-1)
@click.option("-o", "--output", default=str(DOC), show_default=True,
              help="The Markdown file whose table section is replaced ('-': print the table).")
@click.option("--distinct-n", default=None, type=click.IntRange(1),
              help="Rows per group for the distinct rate and rows/s (default: the suite's, the manifest's "
                   "distinct_n or 1,000).")
@click.option("--signal-n", default=None, type=click.IntRange(1),
              help="Tasks per group and policy where the manifest sets no signal_n (default: the suite's 50).")
def main(names: tuple[str, ...], output: str, distinct_n: int | None, signal_n: int | None) -> None:
    """Measure the built-in bootcamps and write the table."""
    chosen = list(names) or [n for n in available() if "/" not in n]  # own bootcamps: adapters have their READMEs
    body = table(chosen, distinct_n, signal_n)
    if output == "-":
        sys.stdout.write(body)
        return
    path = Path(output)
    path.write_text(replace_section(path.read_text(), body))
    click.echo(f"bootcamp_table: wrote {len(chosen)} bootcamps into {path}", err=True)


if __name__ == "__main__":
    main()
