"""`bc-report`: flags in, `report.build_report` + `report.write_report` called, one line to stderr."""
from __future__ import annotations

import sys

import click

from bc_common.cli import EXIT_CODES_HELP, report_errors

EPILOG = f"""\b
Examples:
  bc-gen arithmetic -n 200 | bc-eval --model builtin:noisy --samples 4 -o noisy.jsonl
  bc-report noisy.jsonl -o report.html --title "arithmetic, noisy"
  # a model against a baseline: paired by task and sample: McNemar, sign-flip test, bootstrap CI
  bc-report base.jsonl --compare new.jsonl -o compare.html
  # shards of one run: list them (base) or join them with commas (--compare a.0.jsonl,a.1.jsonl)
  bc-report traj.0.jsonl traj.1.jsonl --format md > summary.md

\b
The HTML file holds every script, style, plot and embedded trajectory: it opens offline. The browser embeds every
failing trajectory up to --max-failures per run and a seeded sample of --max-passes passing ones; the tables and
plots count every trajectory. Needs the report extra: pip install 'bootcamp-harness[report]'.

\b
{EXIT_CODES_HELP}"""


@click.command(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", show_default=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Report file ('-' = stdout; HTML to a terminal is refused).")
@click.option("--format", "fmt", type=click.Choice(["html", "md"]), default="html", show_default=True,
              help="html: the whole report; md: the tables as Markdown.")
@click.option("--compare", "compare", multiple=True, metavar="RUN.jsonl[,SHARD...]",
              help="Another run to compare with FILES (repeatable; commas join one run's shards).")
@click.option("--title", default="bc-report", show_default=True, help="Page title.")
@click.option("--max-failures", default=500, show_default=True, type=click.IntRange(0),
              help="Failing trajectories embedded per run (a seeded sample beyond).")
@click.option("--max-passes", default=100, show_default=True, type=click.IntRange(0),
              help="Passing trajectories embedded per run (a seeded sample).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the samples and the bootstraps.")
@click.option("--bootstrap", "n_boot", default=1000, show_default=True, type=click.IntRange(100),
              help="Bootstrap resamples per interval and test.")
@click.option("--no-extract", is_flag=True, help="Do not run the bootcamps' extract_output on embedded trajectories.")
@click.option("--skip-invalid", is_flag=True, help="Count and skip rows that are not trajectories.")
@report_errors("bc-report")
def main(files: tuple[str, ...], output: str, fmt: str, compare: tuple[str, ...], title: str, max_failures: int,
         max_passes: int, seed: int, n_boot: int, no_extract: bool, skip_invalid: bool) -> None:
    """Report on trajectories (bc-eval output): FILES or stdin -> one HTML page or Markdown tables."""
    from .deps import require

    require(fmt)
    if fmt == "html" and output == "-" and sys.stdout.isatty():
        raise click.UsageError("an HTML report goes to a file: add -o report.html (or --format md)")
    from .report import ReportOptions, build_report, default_label, write_report
    from .runs import RunSpec

    paths = list(files) or ["-"]
    others = [[p for p in value.split(",") if p] for value in compare]
    if any(not o for o in others):
        raise click.UsageError("--compare needs a file")
    if sum(p == "-" for p in paths + [p for o in others for p in o]) > 1:
        raise click.UsageError("stdin ('-') can be read once")
    options = ReportOptions(title=title, max_failures=max_failures, max_passes=max_passes, seed=seed,
                            n_boot=n_boot, extract=not no_extract, skip_invalid=skip_invalid)
    report = build_report(RunSpec(default_label(paths), paths), [RunSpec(default_label(o), o) for o in others],
                          options)
    size = write_report(report, output, fmt)
    runs = ", ".join(f"{c.run.label} ({c.run.count:,})" for c in report.runs)
    skipped = sum(c.run.read.skipped for c in report.runs)
    note = f"; skipped {skipped:,} invalid rows" if skipped else ""
    where = "stdout" if output == "-" else output
    click.echo(f"bc-report: wrote {where} ({size / 1e6:.1f} MB): {runs}{note}", err=True)
    for cmp in report.comparisons:
        if cmp.scope == "all":
            p_boot, p_mc = cmp.p_texts()
            click.echo(f"bc-report: {cmp.other} vs {cmp.base}: score {cmp.test.diff.format(sign=True)} "
                       f"(sign-flip {p_boot}), pass/fail McNemar {p_mc}: {cmp.verdict}", err=True)
