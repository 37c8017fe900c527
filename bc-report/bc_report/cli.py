"""`bc-report`: flags in, `report.build_report` + `report.write_report` called, one line to stderr."""
from __future__ import annotations

import sys

import click

from bc_common.cli import BcCommand
from bc_common.cli_options import Count, output_option, seed_option, skip_invalid_option
from bc_common.paths import refuse_collisions, stdin_or

EMBEDDED = Count(0, 10_000_000)  # trajectories embedded in one page

EPILOG = """\b
Examples:
  bc-gen arithmetic -n 200 | bc-eval --model builtin:noisy --samples 4 -o noisy.jsonl
  bc-report noisy.jsonl -o report.html --title "arithmetic, noisy"
  # a model against a baseline: paired by task and sample: McNemar, sign-flip test, bootstrap CI
  bc-report base.jsonl --compare new.jsonl -o compare.html
  # trivial baselines as reference lines (rows in the tables, ticks on the score-by-group plot)
  bc-eval --model builtin:baseline/copy tasks.jsonl -o copy.jsonl
  bc-report run.jsonl --baseline copy.jsonl --baseline random.jsonl -o report.html
  # matches (bc-eval --opponent-model): ratings with intervals, the win/draw/loss matrix, the side-bias check
  bc-report a_vs_b.jsonl --compare a_vs_c.jsonl --compare b_vs_c.jsonl --format md
  # shards of one run: list them (base) or join them with commas (--compare a.0.jsonl,a.1.jsonl)
  bc-report traj.0.jsonl traj.1.jsonl --format md > summary.md

\b
The HTML file holds every script, style, plot and embedded trajectory: it opens offline. The browser embeds every
failing trajectory up to --max-failures per run and a seeded sample of --max-passes passing ones; the tables and
plots count every trajectory. Needs the report extra: pip install 'bootcamp-harness[report]' (in a clone:
pip install -e '.[report]')."""


@click.command("bc-report", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@output_option(help="Report file ('-' = stdout, the default; HTML to a terminal is refused).")
@click.option("--format", "fmt", type=click.Choice(["html", "md"]), default="html", show_default=True,
              help="html: the whole report; md: the tables as Markdown.")
@click.option("--compare", "compare", multiple=True, metavar="RUN.jsonl[,SHARD...]",
              help="Another run to compare with FILES (repeatable; commas join one run's shards).")
@click.option("--baseline", "baseline", multiple=True, metavar="RUN.jsonl[,SHARD...]",
              help="A baseline run shown as reference lines, not compared (repeatable; commas join shards).")
@click.option("--title", default="bc-report", show_default=True, help="Page title.")
@click.option("--max-failures", default=500, show_default=True, type=EMBEDDED,
              help="Failing trajectories embedded per run (a seeded sample beyond).")
@click.option("--max-passes", default=100, show_default=True, type=EMBEDDED,
              help="Passing trajectories embedded per run (a seeded sample).")
@seed_option(help="Seed of the samples and the bootstraps.")
@click.option("--bootstrap", "n_boot", default=1000, show_default=True, type=Count(100, 1_000_000),
              help="Bootstrap resamples per interval and test.")
@click.option("--no-extract", is_flag=True, help="Do not run the bootcamps' extract_output on embedded trajectories.")
@skip_invalid_option
def main(files: tuple[str, ...], output: str, fmt: str, compare: tuple[str, ...], baseline: tuple[str, ...],
         title: str, max_failures: int, max_passes: int, seed: int, n_boot: int, no_extract: bool,
         skip_invalid: bool) -> None:
    """Report on trajectories (bc-eval output): FILES or stdin -> one HTML page or Markdown tables."""
    from .deps import require

    refuse_collisions(reads=[*(("FILES", p) for p in stdin_or(files)),  # -o X would overwrite the run X
                             *(("--compare", p) for value in compare for p in value.split(",") if p),
                             *(("--baseline", p) for value in baseline for p in value.split(",") if p)],
                      writes=[("-o", output)])
    require(fmt)
    if fmt == "html" and output == "-" and sys.stdout.isatty():
        raise click.UsageError("an HTML report goes to a file: add -o report.html (or --format md)")
    from .report import ReportOptions, build_report, default_label, write_report
    from .runs import RunSpec

    paths = list(files) or ["-"]
    others = [[p for p in value.split(",") if p] for value in compare]
    bases = [[p for p in value.split(",") if p] for value in baseline]
    if any(not o for o in others):
        raise click.UsageError("--compare needs a file")
    if any(not b for b in bases):
        raise click.UsageError("--baseline needs a file")
    if sum(p == "-" for p in paths + [p for o in others + bases for p in o]) > 1:
        raise click.UsageError("stdin ('-') can be read once")
    options = ReportOptions(title=title, max_failures=max_failures, max_passes=max_passes, seed=seed,
                            n_boot=n_boot, extract=not no_extract, skip_invalid=skip_invalid)
    report = build_report(RunSpec(default_label(paths), paths), [RunSpec(default_label(o), o) for o in others],
                          options, [RunSpec(default_label(b), b) for b in bases])
    size = write_report(report, output, fmt)
    runs = ", ".join(f"{c.run.label} ({c.run.count:,})" for c in report.runs + report.baselines)
    skipped = sum(c.run.read.skipped for c in report.runs)
    note = f"; skipped {skipped:,} invalid rows" if skipped else ""
    where = "stdout" if output == "-" else output
    click.echo(f"bc-report: wrote {where} ({size / 1e6:.1f} MB): {runs}{note}", err=True)
    for cols in report.runs + report.baselines:
        for line in cols.run.stamps.lines():
            click.echo(f"bc-report: warning: run {cols.run.label} mixes code versions: {line}", err=True)
    if report.ratings is not None:
        best = ", ".join(f"{p.model} {p.rating.value:.0f} [{p.rating.low:.0f}, {p.rating.high:.0f}]"
                         for p in report.ratings.players)
        click.echo(f"bc-report: ratings: {best}", err=True)
    for cmp in report.comparisons:
        if cmp.scope == "all":
            p_boot, p_mc = cmp.p_texts()
            click.echo(f"bc-report: {cmp.other} vs {cmp.base}: score {cmp.test.diff.format(sign=True)} "
                       f"(sign-flip {p_boot}), pass/fail McNemar {p_mc}: {cmp.verdict}", err=True)
