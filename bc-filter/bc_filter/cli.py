"""`bc-filter`: keep and reshape trajectories (flags -> `pipeline.filter_trajectories`)."""
from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from bc_common.cli import BcCommand
from bc_common.cli_options import SCORE, Count, output_option, skip_invalid_option
from bc_common.records import STATUSES, check_trajectory

from .pipeline import build_processor, check_trajectory_or_task
from .seed_args import seed_output
from .transforms import SHAPES, strip_row_images

TURNS = Count(0, 1_000_000)

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
  # do the stored token ids (bc-eval --record-tokens) still match the text? rows get token_drift
  bc-filter --check-token-drift --tokenizer models/qwen3-8b traj.jsonl | jq -c 'select(.token_drift != [])'

\b
Order: filters (AND) -> --pass/--fail-only-tasks -> --best-per-task -> --expand-prefixes
       -> --dedup -> --to. There is no score filter unless you ask for one.
Per-task flags keep a table per task (--best-per-task: one row per task; pass/fail-only:
the rows that passed the filters); everything else streams in constant memory.

With no filter or reshaping flag, rows are copied as they are (task rows too): a format converter.
The output may not be one of the inputs. The seed's `bc-filter IN OUT` writes OUT when OUT does not exist
or is named *_processed.jsonl; two existing files need -o (`-o -` reads both)."""


def _statuses(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[str]:
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = sorted(set(names) - set(STATUSES))
    if unknown:
        raise click.BadParameter(f"unknown status {', '.join(unknown)}; choose from {', '.join(STATUSES)}")
    return names


@click.command("bc-filter", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@output_option()
@click.option("--format", "output_format", type=click.Choice(["jsonl", "parquet"]),
              help="Output format (default: parquet for a .parquet output, else jsonl).")
@click.option("--min-score", type=SCORE, help="Keep score >= X.")
@click.option("--max-score", type=SCORE, help="Keep score <= Y.")
@click.option("--status", multiple=True, callback=_statuses, help="Keep these statuses (comma list).")
@click.option("--success", "--filter-success", "success", is_flag=True,
              help="Keep successful rows (status completed and score 1.0).")
@click.option("--data-source", metavar="GLOB", help="Keep tasks whose data_source matches (bootcamp/arith*).")
@click.option("--bootcamp", multiple=True, metavar="NAME", help="Keep these bootcamps.")
@click.option("--split", multiple=True, metavar="NAME", help="Keep these task splits.")
@click.option("--generator", multiple=True, metavar="NAME", help="Keep these generator groups.")
@click.option("--min-turns", type=TURNS, help="Keep rows with >= N assistant turns.")
@click.option("--max-turns", type=TURNS, help="Keep rows with <= N assistant turns.")
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
@click.option("--check-token-drift", is_flag=True,
              help="Add token_drift to every row: the turns whose stored prompt ids are not what the conversation "
                   "renders to (--tokenizer) or do not continue the previous turn's ids (bc-eval --record-tokens).")
@click.option("--tokenizer", metavar="DIR|URL", default=None,
              help="The model's tokenizer folder (tokenizer.json + chat template) or its server (/tokenize).")
@click.option("--stats", "show_stats", is_flag=True, help="Print counts and histograms to stderr.")
@click.option("-j", "--jobs", type=Count(1, 1024), default=None,
              help="Worker processes for a large input file when every option is a row filter (default: one per "
                   "core, at most 8; 1: one process). The output is the same bytes.")
@skip_invalid_option
def cli(files: tuple[str, ...], output: str, output_format: str | None, show_stats: bool, skip_invalid: bool,
        extract_training: bool, extract_messages: bool, check_token_drift: bool, tokenizer: str | None,
        jobs: int | None, **options: object) -> None:
    """Filter and reshape trajectories (bc-eval output, or the seed's evaluator rows): FILES or stdin -> stdout
    or -o OUT."""
    source = click.get_current_context().get_parameter_source("output")
    inputs, output = seed_output(list(files), output, output_given=source is not ParameterSource.DEFAULT)
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
    if tokenizer and not check_token_drift:
        raise click.UsageError("--tokenizer is for --check-token-drift")
    drift = None
    if check_token_drift:  # imported here: its tokenizer client (urllib, http) is not start-up for every run
        from .drift import DriftCheck
        from .tokenizer import prompt_renderer
        drift = DriftCheck(prompt_renderer(tokenizer) if tokenizer else None)
    try:
        processor = build_processor(**options, token_drift=drift)  # type: ignore[arg-type]
    except ValueError as exc:  # a bad --where condition
        raise click.UsageError(str(exc)) from None
    stats = processor.process(inputs, output, skip_invalid=skip_invalid, detailed=show_stats,
                              output_format=output_format, jobs=jobs,
                              validate=check_trajectory if _reshapes(processor) else check_trajectory_or_task)
    if drift is not None:
        click.echo(f"bc-filter: {drift.counts.line()}", err=True)
    if show_stats:
        click.echo(stats.format(), err=True)
    elif stats.invalid:
        click.echo(f"bc-filter: skipped {stats.invalid} invalid rows (first: {stats.invalid_reasons[0]})", err=True)
    if stats.rows_in and not stats.rows_out:  # exit 0 with an empty output: say why, or it looks like a bug
        click.echo(f"bc-filter: kept 0 of {stats.rows_in} rows: {why_nothing_kept(processor, stats)}", err=True)


def why_nothing_kept(processor: Any, stats: Any) -> str:
    """The stages that dropped rows, with the splits a --split filter saw instead of the one asked for."""
    reasons = []
    for _, stage, label in processor.stages:
        dropped = stats.dropped.get(label, 0)
        if not dropped:
            continue
        reason = f"{label!r} dropped {dropped}"
        refused = getattr(stage, "refused", None)
        if refused:
            seen = ", ".join(f"{name} ({count})" for name, count in refused.most_common(5))
            reason += f" (the input's splits: {seen}; bc-gen writes split 'train' unless given --split)"
        reasons.append(reason)
    return "; ".join(reasons) or "no row passed the filters"


def _reshapes(processor: Any) -> bool:
    """True when a stage needs trajectories (stripping images alone works on task rows too)."""
    return any(stage is not strip_row_images for _, stage, _ in processor.stages)


main = cli
