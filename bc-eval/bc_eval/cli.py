"""`bc-eval`: flags in (grouped in `bc_eval.options`), `bc_eval.runner.evaluate` called, summary to stderr."""
from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path
from typing import Any

import click
import orjson

from bc_common.cli import BcCommand
from bc_common.cli_options import quiet_option
from bc_common.errors import BcError, ConfigError, UsageError
from bc_common.rollout import Limits

from . import runner
from .files import refuse_colliding_files, refuse_registry_without_tasks
from .options import (
    endpoint_options,
    environment_options,
    image_options,
    judge_options,
    limit_options,
    opponent_options,
    output_options,
    request_options,
    run_options,
    seed_noop_options,
    warn,
)
from .preflight import choose_model
from .rescore import rescore as rescore_run
from .runner import EvalConfig, evaluate
from .summary import Summary


class RunFailed(BcError):
    """Every trajectory this run started failed (endpoint down, bad key): exit 1, the rows are written."""


EPILOG = """\b
Examples:
  bc-gen arithmetic -n 200 | bc-eval --model builtin:noisy > runs.jsonl
  bc-eval tasks.jsonl -o runs.jsonl --model qwen3-8b --base-url http://127.0.0.1:8000/v1 -c 256 --samples 4
  bc-eval tasks.jsonl -o runs.jsonl --base-url http://127.0.0.1:8000/v1 --resume   # the server's only model
  OPENAI_API_KEY=... bc-eval tasks.parquet --model gpt-4o-mini --param temperature=0.7 --summary s.json
  bc-eval tasks.jsonl --model qwen3-8b --base-url http://127.0.0.1:8000/v1 --price 0.2,0.6   # cost in USD
  bc-eval tasks.jsonl --model qwen3-8b --base-url http://127.0.0.1:8000/v1 --dry-run
  bc-eval t.jsonl --base-url http://127.0.0.1:8080/v1 --debug "$(head -1 t.jsonl | jq -r .id)" -o /dev/null
  bc-eval tasks.jsonl --model builtin:reference --tool-transport mcp --tool-server http://127.0.0.1:8000/mcp
  bc-gen chart_read -n 50 | bc-eval --model qwen2.5-vl --max-image-pixels 1003520 --min-image-edge 28
  bc-gen tictactoe -n 20 | bc-eval --model builtin:reference --opponent-model builtin:random --samples 2
  bc-eval t.jsonl --model a --base-url http://127.0.0.1:8000/v1 --opponent-model b \
      --opponent-base-url http://127.0.0.1:8001/v1 --samples 2 -o matches.jsonl    # model vs model, both sides
  bc-eval --rescore runs.jsonl -o rescored.jsonl   # today's verifiers over stored trajectories, no model
  BC_JUDGE_API_KEY=... bc-eval facts.jsonl --model M --base-url URL --judge-base-url JURL --judge-model J

\b
A model is named (--model NAME, or --model builtin:reference / builtin:noisy for the bootcamps' reference
policies), or left out with --base-url when the server lists exactly one.

\b
Seed flags still work: --dataset-path, --output-dir, --api-url, --api-model, --max-concurrent,
--api-extra-params, --api-extra-headers, --reward-calculator-class, --resume-from-result-path, --api-key
(read from the command line with a warning; prefer the environment), --max-tool-turns-per-interaction T and
--max-interaction-turns I (deprecated: mapped to --max-assistant-turns and --max-user-turns I*(T+1)).

\b
A run whose model calls failed for some trajectories exits 0 (those rows have status "error"; rerun them with
--resume); it exits 1 when every trajectory it started failed (endpoint down, bad key...; the rows are still
written) or the endpoint check of --dry-run failed."""


@click.command("bc-eval", cls=BcCommand, epilog=EPILOG,
               interrupted_note="finished trajectories are kept (rerun with --resume)",
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("tasks", nargs=-1)
@click.option("--dataset-path", "dataset_paths", multiple=True, hidden=True, help="Seed alias of TASKS.")
@output_options
@click.option("--output-dir", default=None, hidden=True, help="Seed alias: OUT = DIR/<model>/trajectories.jsonl.")
@click.option("--summary", "summary_path", default=None, metavar="FILE.json", help="Write the summary as JSON.")
@click.option("--summary-csv", default=None, metavar="FILE.csv",
              help="Write the summary as CSV (in the seed's mode, the seed's sectioned report; with --output-dir it "
                   "defaults to OUT's name with .csv, where the seed wrote it).")
@click.option("--seed-compat", is_flag=True,
              help="The seed's mode (also on with --dataset-path or --output-dir): rows carry the seed's "
                   "full_context and response_context, and --summary-csv is the seed's report.")
@endpoint_options
@opponent_options
@request_options
@run_options
@limit_options
@environment_options
@image_options
@judge_options
@click.option("--dry-run", is_flag=True, help="Check tasks, bootcamps, tools and the endpoint; run nothing.")
@click.option("--rescore", is_flag=True,
              help="The inputs are trajectories: grade them again with today's verifiers (no model is called); each "
                   "row keeps its old score and stamp in `rescore`; the summary counts changed rows per bootcamp.")
@quiet_option
@seed_noop_options
def main(tasks: tuple[str, ...], dataset_paths: tuple[str, ...], output_dir: str | None, summary_path: str | None,
         summary_csv: str | None, seed_compat: bool, dry_run: bool, rescore: bool, quiet: bool,
         fields: dict[str, Any]) -> int | None:
    """Run a model through each task's tools and environment replies; write one trajectory per (task, sample).

    Tasks come from TASKS (.jsonl, .json, .parquet; '-' or nothing = stdin); trajectories go to stdout or -o.
    """
    output, resume = fields.pop("output"), fields.pop("resume")
    config = EvalConfig(tasks=list(tasks) + list(dataset_paths), output=output or "-",
                        resume=resume and not (output_dir and not output),  # set below, once the output is known
                        progress=sys.stderr.isatty() and not quiet and not (fields["trace"] or fields["debug"]),
                        seed_compat=seed_compat or bool(dataset_paths or output_dir), **fields)
    if output_dir and not output:  # the seed's layout: DIR/<model>/...; the model must be known first
        config.model = config.model or asyncio.run(choose_model(config))
        config.output = str(Path(output_dir) / re.sub(r"[^A-Za-z0-9._-]+", "_", config.model) / "trajectories.jsonl")
        config.resume = resume
        warn(f"writing {config.output}")
        if not summary_csv and not rescore:  # the seed's report lies beside its results
            summary_csv = str(Path(config.output).with_suffix(".csv"))
            Path(summary_csv).parent.mkdir(parents=True, exist_ok=True)  # the seed made DIR/<model> up front too
    refuse_colliding_files(config, summary_path, summary_csv)  # `bc-eval X -o X` would truncate X
    if rescore:
        return _rescore(config, summary_path, summary_csv, quiet)
    refuse_registry_without_tasks(config)  # the seed's registry-only evaluation ran 0 tasks, exit 0
    for path in (summary_path, summary_csv):  # fail now, not after the whole run
        if path:
            _check_writable(path)
    if dry_run:
        return asyncio.run(runner.dry_run(config, lambda line: click.echo(f"bc-eval: {line}", err=True)))
    summary = Summary(k=config.samples, store_images=config.store_images, record_tokens=config.record_tokens,
                      seed_compat=config.seed_compat)
    try:
        evaluate(config, summary=summary)
    finally:
        _report(summary, summary_path, summary_csv, quiet, config)
    if summary.all_failed:
        error = summary.first_error or {}
        raise RunFailed(f"all {summary.ran} trajectories of this run failed (first: {error.get('type')}: "
                        f"{error.get('message')}); their rows are written, rerun them with --resume")
    return None


def _rescore(config: EvalConfig, summary_path: str | None, summary_csv: str | None, quiet: bool) -> None:
    """`--rescore`: the verifier again over stored trajectories; the per-bootcamp changes to stderr (and --summary)."""
    if config.model or config.resume or summary_csv:
        flag = "--model" if config.model else "--resume" if config.resume else "--summary-csv"
        raise UsageError(f"--rescore calls no model and writes its output whole: {flag} does not apply")
    if summary_path:
        _check_writable(summary_path)
    summary = rescore_run(config, runner.make_environments(config))
    if summary.read.skipped:
        click.echo(f"bc-eval: skipped {summary.read.skipped} invalid rows (first: {summary.read.reasons[0]})",
                   err=True)
    if not quiet:
        for line in summary.lines():
            click.echo(f"bc-eval: rescore: {line}", err=True)
    if summary_path:
        Path(summary_path).write_bytes(orjson.dumps(summary.report(), option=orjson.OPT_INDENT_2))


def _report(summary: Summary, path: str | None, csv_path: str | None, quiet: bool, config: EvalConfig) -> None:
    if summary.total.count == 0:
        return
    if not quiet:
        click.echo(summary.table(), err=True)
    if path:
        Path(path).write_bytes(orjson.dumps(summary.report(), option=orjson.OPT_INDENT_2))
    if csv_path:
        text = summary.seed.csv(seed_info(config, summary)) if summary.seed is not None else summary.csv()
        Path(csv_path).write_text(text, encoding="utf-8")


def seed_info(config: EvalConfig, summary: Summary) -> dict[str, Any]:
    """The "Basic Evaluation Information" of the seed's report (request headers are never written)."""
    limits = config.limits or Limits()
    return {"Evaluation Model": ", ".join(sorted(summary.models)) or config.model, "Dataset Path": ", ".join(config.tasks) or "-",
            "Tool Configuration": config.tool_config or "Default", "Output Path": config.output,
            **{label: "the bootcamp's budget" if value is None else value
               for label, value in (("Max Assistant Turns", limits.max_assistant_turns),
                                    ("Max User Turns", limits.max_user_turns))},
            "api_extra_params": orjson.dumps(config.params).decode()}


def _check_writable(path: str) -> None:
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise ConfigError(f"{path}: cannot write here (missing folder, a folder, or no permission)")


