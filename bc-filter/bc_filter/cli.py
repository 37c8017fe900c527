"""`bc-filter`: keep and reshape trajectories (flags -> `pipeline.filter_trajectories`)."""
from __future__ import annotations

from typing import Any

import click

from bc_common.cli import FINITE_FLOAT, BcCommand
from bc_common.records import STATUSES, check_trajectory

from .pipeline import build_processor, check_trajectory_or_task
from .transforms import SHAPES, strip_row_images

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
  # the seed's spellings and its evaluator's rows work too
  bc-filter eval_results.jsonl --filter-success --expand-messages-prefixes --extract-training -o out.jsonl
  # convert: task rows or trajectories to parquet (task rows in verl's layout) and back
  bc-filter tasks.jsonl -o tasks.parquet && bc-filter tasks.parquet -o tasks.jsonl
  # visual tasks: images are kept by every shape; drop them for a text-only slice
  bc-filter --success --to sft --strip-images traj.jsonl

\b
Order: filters (AND) -> --pass/--fail-only-tasks -> --best-per-task -> --expand-prefixes
       -> --dedup -> --to. There is no score filter unless you ask for one.
Per-task flags keep a table per task (--best-per-task: one row per task; pass/fail-only:
the rows that passed the filters); everything else streams in constant memory.

With no filter or reshaping flag, rows are copied as they are (task rows too): a format converter.
The output may not be one of the inputs.

\b
Exit codes: 0 ok, 2 bad input (FILE:LINE: reason), bad usage or an unwritable output, 1 other errors,
130 interrupted (SIGINT/SIGTERM: nothing is published)."""


def _statuses(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[str]:
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = sorted(set(names) - set(STATUSES))
    if unknown:
        raise click.BadParameter(f"unknown status {', '.join(unknown)}; choose from {', '.join(STATUSES)}")
    return names


@click.command("bc-filter", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", show_default=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file ('-' = stdout).")
@click.option("--format", "output_format", type=click.Choice(["jsonl", "parquet"]),
              help="Output format (default: parquet for a .parquet output, else jsonl).")
@click.option("--min-score", type=FINITE_FLOAT, help="Keep score >= X.")
@click.option("--max-score", type=FINITE_FLOAT, help="Keep score <= Y.")
@click.option("--status", multiple=True, callback=_statuses, help="Keep these statuses (comma list).")
@click.option("--success", "--filter-success", "success", is_flag=True,
              help="Keep successful rows (status completed and score 1.0).")
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
@click.option("--expand-prefixes", "--expand-messages-prefixes", "expand_prefixes", is_flag=True,
              help="One row per assistant turn, ending on that turn.")
@click.option("--to", "to", type=click.Choice(list(SHAPES)), help="Output shape (default: trajectories).")
@click.option("--extract-training", is_flag=True, help="The seed's spelling of --to training.")
@click.option("--extract-messages", is_flag=True, help="The seed's spelling of --to messages.")
@click.option("--strip-images", is_flag=True,
              help="Drop image parts (and the seed's image field): text-only slices of visual data.")
@click.option("--stats", "show_stats", is_flag=True, help="Print counts and histograms to stderr.")
@click.option("--skip-invalid", is_flag=True, help="Count and skip rows that are not trajectories.")
def cli(files: tuple[str, ...], output: str, output_format: str | None, show_stats: bool, skip_invalid: bool,
        extract_training: bool, extract_messages: bool, **options: object) -> None:
    """Filter and reshape trajectories (bc-eval output, or the seed's evaluator rows): FILES or stdin -> stdout
    or -o OUT."""
    if options["pass_only_tasks"] and options["fail_only_tasks"]:
        raise click.UsageError("--pass-only-tasks and --fail-only-tasks exclude each other")
    shapes = [shape for flag, shape in ((extract_training, "training"), (extract_messages, "messages")) if flag]
    if options["to"]:
        shapes.insert(0, str(options["to"]))
    if len(set(shapes)) > 1:
        raise click.UsageError(f"choose one output shape (got {', '.join(dict.fromkeys(shapes))})")
    options["to"] = shapes[0] if shapes else None
    if output_format is None:
        output_format = "parquet" if output.endswith(".parquet") else "jsonl"
    try:
        processor = build_processor(**options)  # type: ignore[arg-type]
    except ValueError as exc:  # a bad --where condition
        raise click.UsageError(str(exc)) from None
    stats = processor.process(list(files), output, skip_invalid=skip_invalid, detailed=show_stats,
                              output_format=output_format,
                              validate=check_trajectory if _reshapes(processor) else check_trajectory_or_task)
    if show_stats:
        click.echo(stats.format(), err=True)
    elif stats.invalid:
        click.echo(f"bc-filter: skipped {stats.invalid} invalid rows (first: {stats.invalid_reasons[0]})", err=True)


def _reshapes(processor: Any) -> bool:
    """True when a stage needs trajectories (stripping images alone works on task rows too)."""
    return any(stage is not strip_row_images for _, stage, _ in processor.stages)


main = cli
