"""`bc-filter`: keep and reshape trajectories (flags -> `pipeline.filter_trajectories`)."""
from __future__ import annotations

import os
import sys

import click

from bc_common.errors import BcError
from bc_common.records import STATUSES

from .pipeline import build_processor
from .transforms import SHAPES

EPILOG = """\b
Examples:
  # one SFT row per solved task
  bc-gen arithmetic -n 100 | bc-eval --model builtin:noisy --samples 4 \\
    | bc-filter --min-score 0.9 --best-per-task --to sft -o sft.jsonl
  # the tasks no sample solved, as task rows to re-run with another model
  bc-filter --fail-only-tasks --to task traj.jsonl | bc-eval --model other
  # failure analysis: test-split runs that hit the turn limit after a tool error
  bc-filter --split test --status max_turns --has-tool-error --stats traj.jsonl
  # any dotted field: = != >= <= > < (JSON literals, else strings)
  bc-filter --where input.extra_info.generator_name=hard --where 'usage.total_tokens<4000'
  # one training row per assistant turn
  bc-filter --success --expand-prefixes --dedup --to training traj.jsonl

\b
Order: filters (AND) -> --pass/--fail-only-tasks -> --best-per-task -> --expand-prefixes
       -> --dedup -> --to. There is no score filter unless you ask for one.
Per-task flags keep a table per task (--best-per-task: one row per task; pass/fail-only:
the rows that passed the filters); everything else streams in constant memory.

\b
Exit codes: 0 ok, 2 bad input (FILE:LINE: reason) or bad usage, 1 other errors, 130 interrupted."""


def _statuses(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[str]:
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = sorted(set(names) - set(STATUSES))
    if unknown:
        raise click.BadParameter(f"unknown status {', '.join(unknown)}; choose from {', '.join(STATUSES)}")
    return names


@click.command(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", show_default=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Output JSONL ('-' = stdout).")
@click.option("--min-score", type=float, help="Keep score >= X.")
@click.option("--max-score", type=float, help="Keep score <= Y.")
@click.option("--status", multiple=True, callback=_statuses, help="Keep these statuses (comma list).")
@click.option("--success", is_flag=True, help="Keep successful rows (status completed and score 1.0).")
@click.option("--data-source", metavar="GLOB", help="Keep tasks whose data_source matches (bootcamp/arith*).")
@click.option("--bootcamp", multiple=True, metavar="NAME", help="Keep these bootcamps.")
@click.option("--split", multiple=True, metavar="NAME", help="Keep these task splits.")
@click.option("--generator", multiple=True, metavar="NAME", help="Keep these generator groups.")
@click.option("--min-turns", type=click.IntRange(0), help="Keep rows with >= N assistant turns.")
@click.option("--max-turns", type=click.IntRange(0), help="Keep rows with <= N assistant turns.")
@click.option("--has-tool-error", is_flag=True, help="Keep rows where a tool call failed.")
@click.option("--where", multiple=True, metavar="PATH<op>VALUE",
              help="Condition on a dotted field, e.g. input.extra_info.split=train, messages[-1].role!=tool.")
@click.option("--best-per-task", is_flag=True, help="Keep the highest-scoring sample of each task.")
@click.option("--pass-only-tasks", is_flag=True, help="Keep tasks where every sample succeeded.")
@click.option("--fail-only-tasks", is_flag=True, help="Keep tasks where no sample succeeded.")
@click.option("--dedup", is_flag=True, help="Drop repeated conversations on the same task.")
@click.option("--expand-prefixes", is_flag=True, help="One row per assistant turn, ending on that turn.")
@click.option("--to", "to", type=click.Choice(list(SHAPES)), help="Output shape (default: trajectories).")
@click.option("--stats", "show_stats", is_flag=True, help="Print counts and histograms to stderr.")
@click.option("--skip-invalid", is_flag=True, help="Count and skip rows that are not trajectories.")
def cli(files: tuple[str, ...], output: str, show_stats: bool, skip_invalid: bool, **options: object) -> None:
    """Filter and reshape trajectories (bc-eval output): FILES or stdin -> stdout or -o OUT."""
    if options["pass_only_tasks"] and options["fail_only_tasks"]:
        raise click.UsageError("--pass-only-tasks and --fail-only-tasks exclude each other")
    try:
        processor = build_processor(**options)  # type: ignore[arg-type]
    except ValueError as exc:  # a bad --where condition
        raise click.UsageError(str(exc)) from None
    try:
        stats = processor.process(list(files), output, skip_invalid=skip_invalid, detailed=show_stats)
    except BcError as exc:
        click.echo(f"bc-filter: {exc}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    if show_stats:
        click.echo(stats.format(), err=True)
    elif stats.invalid:
        click.echo(f"bc-filter: skipped {stats.invalid} invalid rows (first: {stats.invalid_reasons[0]})", err=True)


def main() -> None:
    try:
        code = cli.main(standalone_mode=False)  # returns the exit code of --help; raises on errors
    except (click.exceptions.Abort, KeyboardInterrupt):  # Ctrl-C: a file output is never half-published
        click.echo("bc-filter: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except Exception as exc:  # noqa: BLE001 — anything unexpected: one line, exit 1
        click.echo(f"bc-filter: error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
