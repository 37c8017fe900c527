"""`bc-eval`: flags in, `bc_eval.runner.evaluate` called, summary to stderr."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import click
import orjson

from bc_common.cli import BcCommand
from bc_common.config import parse_assignments
from bc_common.errors import BcError, ConfigError
from bc_common.images import ImageLimits
from bc_common.paths import refuse_output_among_inputs
from bc_common.rollout import Limits

from . import runner
from .client import RetryPolicy
from .preflight import choose_model
from .profiles import NAMES as PROFILE_NAMES
from .runner import EvalConfig, evaluate
from .summary import Summary

EPILOG = """\b
Examples:
  bc-gen arithmetic -n 200 | bc-eval --model builtin:noisy > runs.jsonl
  bc-eval tasks.jsonl -o runs.jsonl --model qwen3-8b --base-url http://127.0.0.1:8000/v1 -c 256 --samples 4
  bc-eval tasks.jsonl -o runs.jsonl --base-url http://127.0.0.1:8000/v1 --resume   # the server's only model
  OPENAI_API_KEY=... bc-eval tasks.parquet --model gpt-4o-mini --param temperature=0.7 --summary s.json
  bc-eval tasks.jsonl --model qwen3-8b --base-url http://127.0.0.1:8000/v1 --dry-run
  bc-eval t.jsonl --base-url http://127.0.0.1:8080/v1 --debug "$(head -1 t.jsonl | jq -r .id)" -o /dev/null
  bc-eval tasks.jsonl --model builtin:reference --tool-transport mcp --tool-server http://127.0.0.1:8000/mcp
  bc-gen chart_read -n 50 | bc-eval --model qwen2.5-vl --max-image-pixels 1003520 --min-image-edge 28

\b
A model is named (--model NAME, or --model builtin:reference / builtin:noisy for the bootcamps' reference
policies), or left out with --base-url when the server lists exactly one.

\b
Seed flags still work: --dataset-path, --output-dir, --api-url, --api-model, --max-concurrent,
--api-extra-params, --api-extra-headers, --reward-calculator-class, --resume-from-result-path, --api-key
(read from the command line with a warning; prefer the environment), --max-tool-turns-per-interaction T and
--max-interaction-turns I (deprecated: mapped to --max-assistant-turns and --max-user-turns I*(T+1)).

\b
Exit codes: 0 the run finished (trajectories whose model calls failed are rows with status "error";
rerun them with --resume); 1 every trajectory this run started failed (status "error": endpoint down,
bad key...; the rows are still written) or the endpoint check of --dry-run failed; 2 bad input, config or
flags; 130 interrupted by SIGINT or SIGTERM (finished trajectories are kept: rerun with --resume).
"""


def _mapping(text: str | None, flag: str) -> dict[str, Any]:
    """A seed-style mapping: JSON text, `@file.json`, or `k:v,k:v` (values typed as YAML scalars)."""
    if not text:
        return {}
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{flag}: cannot read {text[1:]}: {exc.strerror}") from None
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            value = orjson.loads(stripped)
        except orjson.JSONDecodeError as exc:
            raise ConfigError(f"{flag}: invalid JSON: {exc}") from None
        if not isinstance(value, dict):
            raise ConfigError(f"{flag}: expected a JSON object")
        return value
    return parse_assignments([part.replace(":", "=", 1) for part in stripped.split(",") if part.strip()])


def _headers(pairs: tuple[str, ...], legacy: str | None) -> dict[str, str]:
    items = list(pairs) + ([p for p in legacy.split(",") if p.strip()] if legacy else [])
    headers = {}
    for item in items:
        name, sep, value = item.partition(":")
        if not sep or not re.fullmatch(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+", name.strip()):
            raise ConfigError("--header expects NAME:VALUE, got a value without a valid name")
        headers[name.strip()] = value.strip()
    return headers


@click.command("bc-eval", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("tasks", nargs=-1)
@click.option("--dataset-path", "dataset_paths", multiple=True, hidden=True, help="Seed alias of TASKS.")
@click.option("-o", "--output", default=None, metavar="OUT.jsonl", help="Trajectories go here (default stdout).")
@click.option("--output-dir", default=None, hidden=True, help="Seed alias: OUT = DIR/<model>/trajectories.jsonl.")
@click.option("--model", "--api-model", "model", default=None,
              help="Model name sent to the server (default: the server's only model), or builtin:reference / "
                   "builtin:noisy (no network).")
@click.option("--base-url", "--api-url", "base_url", envvar="OPENAI_BASE_URL", default=None,
              help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 [env OPENAI_BASE_URL].")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
              help="Environment variable holding the API key (keys are never taken from the command line).")
@click.option("--api-key", "legacy_api_key", default=None, hidden=True)
@click.option("-c", "--concurrency", "--max-concurrent", "concurrency", default=64, show_default=True,
              help="Trajectories in flight.")
@click.option("--samples", default=1, show_default=True, help="Runs per task (pass@k).")
@click.option("--resume", is_flag=True, help="Keep finished trajectories of OUT; rerun errored and missing ones.")
@click.option("--force", is_flag=True, help="--resume even under other settings than those stored with OUT.")
@click.option("--resume-from-result-path", default=None, hidden=True, help="Seed alias: -o PATH --resume.")
@click.option("--summary", "summary_path", default=None, metavar="FILE.json", help="Write the summary as JSON.")
@click.option("--summary-csv", default=None, metavar="FILE.csv", help="Write the summary as CSV.")
@click.option("--max-assistant-turns", type=int, default=None,
              help="Model calls per trajectory [default: 5, or more where a bootcamp needs more].")
@click.option("--max-user-turns", type=int, default=None,
              help="Tool responses and interaction replies [default: 20, or the bootcamp's own].")
@click.option("--max-tool-calls-per-turn", type=int, default=None,
              help="Tool calls one assistant message may make (more: none run, the trajectory stops) "
                   "[default: 16, or the bootcamp's own].")
@click.option("--max-tool-calls", type=int, default=None,
              help="Tool calls per trajectory [default: 64, or the bootcamp's own].")
@click.option("--max-response-mb", default=32.0, show_default=True,
              help="Largest model answer accepted, in MiB (a larger one is refused as it arrives).")
@click.option("--max-tool-turns-per-interaction", type=int, default=None, hidden=True)
@click.option("--max-interaction-turns", type=int, default=None, hidden=True)
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Request parameter (temperature=0.7, extra_body={...}); builtin:noisy takes error_rate and seed.")
@click.option("--api-extra-params", default=None, hidden=True)
@click.option("--header", "headers", multiple=True, metavar="NAME:VALUE", help="Extra HTTP header (never recorded).")
@click.option("--api-extra-headers", default=None, hidden=True)
@click.option("--tool-config", default=None, type=click.Path(dir_okay=False), help="Tools for every task.")
@click.option("--tool-transport", type=click.Choice(["local", "mcp"]), default="local", show_default=True,
              help="Run the tools in process, or in MCP sessions on a bc-toolserve (--tool-server; token from "
                   "BC_TOOLSERVE_TOKEN).")
@click.option("--tool-server", default=None, metavar="URL", help="MCP endpoint, e.g. http://127.0.0.1:8000/mcp.")
@click.option("--interaction-config", default=None, type=click.Path(dir_okay=False),
              help="Interaction for every task.")
@click.option("--reward-calculator", "--reward-calculator-class", "reward_calculator", default=None,
              metavar="DOTTED", help="Verifier class for every task.")
@click.option("--verify-correction-kwargs", default=None, help="Verifier kwargs: JSON, @file or k:v,k:v.")
@click.option("--bootcamp-registry", default=None, type=click.Path(dir_okay=False),
              help="Seed bootcamp_registry.jsonl resolving data_source values.")
@click.option("--timeout", default=600.0, show_default=True, help="Seconds per model call attempt.")
@click.option("--retries", default=5, show_default=True, help="Retries of 429, 5xx, timeouts, connection errors.")
@click.option("--backoff", default=0.5, show_default=True, help="First retry delay in seconds (doubles).")
@click.option("--client", type=click.Choice(["aiohttp", "openai"]), default="aiohttp", show_default=True,
              help="HTTP client: our fast aiohttp one, or the openai SDK for providers with quirks.")
@click.option("--server-profile", type=click.Choice(PROFILE_NAMES), default="auto", show_default=True,
              help="What the server needs in a request (vllm, sglang, llamacpp, openai; generic: none of it); "
                   "auto detects it from GET /models and the answers' fields. See docs/bc-eval.md.")
@click.option("--trace", is_flag=True, help="Print every turn to stderr as it happens (messages, tool calls and "
                                            "results, interaction replies, the verifier's answer and score).")
@click.option("--debug", "debug_task", default=None, metavar="TASK_ID",
              help="Run only the task with this id, traced (--trace): debug one task, then scale.")
@click.option("--max-image-pixels", type=click.IntRange(0), default=None, metavar="N",
              help="Scale images larger than N pixels (width x height) down, keeping the aspect; 0: no limit "
                   "[env MAX_IMAGE_SIZE; default none].")
@click.option("--min-image-edge", type=click.IntRange(0), default=None, metavar="N",
              help="Scale images whose shorter edge is below N pixels up; 0: no limit [env MIN_IMAGE_EDGE].")
@click.option("--no-store-images", is_flag=True,
              help="Trajectories keep each image's sha256 (sha256:<hex>) instead of its bytes.")
@click.option("--ordered", is_flag=True, help="Emit trajectories in input order.")
@click.option("--skip-invalid", is_flag=True, help="Skip (and count) invalid task rows instead of stopping.")
@click.option("--dry-run", is_flag=True, help="Check tasks, bootcamps, tools and the endpoint; run nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No summary table on stderr.")
@click.option("--verbose", is_flag=True, hidden=True)
@click.option("--tokenizer-path", default=None, hidden=True)
@click.option("--evaluator-class", default=None, hidden=True)
def main(tasks: tuple[str, ...], dataset_paths: tuple[str, ...], output: str | None, output_dir: str | None,
         model: str, base_url: str | None, api_key_env: str, legacy_api_key: str | None, concurrency: int,
         samples: int, resume: bool, force: bool, resume_from_result_path: str | None, summary_path: str | None,
         summary_csv: str | None, max_assistant_turns: int | None, max_user_turns: int | None,
         max_tool_calls_per_turn: int | None, max_tool_calls: int | None, max_response_mb: float,
         max_tool_turns_per_interaction: int | None, max_interaction_turns: int | None, params: tuple[str, ...],
         api_extra_params: str | None, headers: tuple[str, ...], api_extra_headers: str | None,
         tool_config: str | None, tool_transport: str, tool_server: str | None, interaction_config: str | None,
         reward_calculator: str | None,
         verify_correction_kwargs: str | None, bootcamp_registry: str | None, timeout: float, retries: int,
         backoff: float, client: str, server_profile: str, trace: bool, debug_task: str | None,
         max_image_pixels: int | None, min_image_edge: int | None,
         no_store_images: bool, ordered: bool, skip_invalid: bool, dry_run: bool, quiet: bool,
         verbose: bool, tokenizer_path: str | None, evaluator_class: str | None) -> None:
    """Run a model through each task's tools and environment replies; write one trajectory per (task, sample).

    Tasks come from TASKS (.jsonl, .json, .parquet; '-' or nothing = stdin); trajectories go to stdout or -o.
    """
    try:  # SIGTERM stops like Ctrl-C: finished trajectories are flushed, exit 130
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    except ValueError:  # not the main thread (an embedding caller): leave signals alone
        pass
    try:
        if legacy_api_key:
            _warn("--api-key on the command line leaks into shell history and `ps`; "
                  f"put the key in ${api_key_env} instead. Using it for this run only.")
        for flag, value in (("--tokenizer-path", tokenizer_path), ("--evaluator-class", evaluator_class)):
            if value:
                _warn(f"{flag} is accepted for seed compatibility and has no effect")
        if resume_from_result_path:
            output, resume = resume_from_result_path, True
        assistant_turns, user_turns = _turn_limits(max_assistant_turns, max_user_turns,
                                                   max_tool_turns_per_interaction, max_interaction_turns)
        if not 0 < max_response_mb <= 4096:
            raise ConfigError("--max-response-mb must be in (0, 4096]")
        config = EvalConfig(
            tasks=list(tasks) + list(dataset_paths), output=output or "-", model=model, base_url=base_url,
            api_key=legacy_api_key or os.environ.get(api_key_env) or None,
            headers=_headers(headers, api_extra_headers),
            params={**_mapping(api_extra_params, "--api-extra-params"), **parse_assignments(list(params))},
            client=client, concurrency=concurrency, samples=samples, ordered=ordered,
            resume=resume and not (output_dir and not output),  # set below, once the output is known
            limits=_limits(assistant_turns, user_turns, max_tool_calls_per_turn, max_tool_calls),
            force=force, max_response_bytes=int(max_response_mb * (1 << 20)),
            verify_kwargs=_mapping(verify_correction_kwargs, "--verify-correction-kwargs"),
            tool_config=tool_config, tool_transport=tool_transport, tool_server=tool_server,
            interaction_config=interaction_config, reward_calculator=reward_calculator,
            registry_file=bootcamp_registry, timeout=timeout,
            retry=RetryPolicy(max_retries=retries, base_delay=backoff), skip_invalid=skip_invalid,
            progress=sys.stderr.isatty() and not quiet and not (trace or debug_task),
            image_limits=_image_limits(max_image_pixels, min_image_edge), store_images=not no_store_images,
            server_profile=server_profile, trace=trace, debug=debug_task)
        if output_dir and not output:  # the seed's layout: DIR/<model>/...; the model must be known first
            config.model = config.model or asyncio.run(choose_model(config))
            config.output = str(Path(output_dir) / re.sub(r"[^A-Za-z0-9._-]+", "_", config.model)
                                / "trajectories.jsonl")
            config.resume = resume
            _warn(f"writing {config.output}")
        refuse_output_among_inputs(config.output, config.tasks)  # `bc-eval X -o X` would truncate X
        for path in (summary_path, summary_csv):  # fail now, not after the whole run
            if path:
                _check_writable(path)
        if dry_run:
            sys.exit(asyncio.run(runner.dry_run(config, lambda line: click.echo(f"bc-eval: {line}", err=True))))
        summary = Summary(k=samples, store_images=not no_store_images)
        try:
            evaluate(config, summary=summary)
        finally:
            _report(summary, summary_path, summary_csv, quiet)
        if summary.all_failed:
            error = summary.first_error or {}
            click.echo(f"bc-eval: error: all {summary.ran} trajectories of this run failed (first: "
                       f"{error.get('type')}: {error.get('message')}); their rows are written, "
                       "rerun them with --resume", err=True)
            sys.exit(1)
    except BcError as exc:
        click.echo(f"bc-eval: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("bc-eval: interrupted; finished trajectories are kept (rerun with --resume)", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): stop quietly
        sys.exit(0)
    except OSError as exc:  # an output that cannot be written (missing folder, no permission, disk full)
        click.echo(f"bc-eval: error: {exc.filename or 'output'}: {exc.strerror or exc}", err=True)
        sys.exit(2)


def _image_limits(max_pixels: int | None, min_edge: int | None) -> ImageLimits:
    try:
        return ImageLimits.resolve(max_pixels, min_edge)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _limits(assistant: int | None, user: int | None, per_turn: int | None, per_trajectory: int | None) -> Limits:
    """The user's budgets and caps; a budget left None is each bootcamp's own default (Limits.resolve)."""
    try:
        return Limits(assistant, user, per_turn, per_trajectory)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _turn_limits(assistant: int | None, user: int | None, tool_turns: int | None,
                 interaction_turns: int | None) -> tuple[int | None, int | None]:
    """Our turn budgets, from the seed's deprecated per-interaction flags where given: I interaction rounds of
    T tool turns and one answer each allow I*(T+1) assistant turns and I*(T+1) user turns (T tool responses and
    one interaction reply per round). A flag of ours given too wins; None leaves the bootcamp's default."""
    if tool_turns is None and interaction_turns is None:
        return assistant, user
    for flag, value in (("--max-tool-turns-per-interaction", tool_turns),
                        ("--max-interaction-turns", interaction_turns)):
        if value is not None and value < (0 if flag.startswith("--max-tool") else 1):
            raise ConfigError(f"{flag} must be at least {0 if flag.startswith('--max-tool') else 1}")
    rounds = 1 if interaction_turns is None else interaction_turns
    per_round = (4 if tool_turns is None else tool_turns) + 1
    mapped = (rounds * per_round if assistant is None else assistant,
              rounds * per_round if user is None else user)
    _warn("--max-tool-turns-per-interaction and --max-interaction-turns are deprecated; using "
          f"--max-assistant-turns {mapped[0]} --max-user-turns {mapped[1]}")
    return mapped


def _report(summary: Summary, path: str | None, csv_path: str | None, quiet: bool) -> None:
    if summary.total.count == 0:
        return
    if not quiet:
        click.echo(summary.table(), err=True)
    if path:
        Path(path).write_bytes(orjson.dumps(summary.report(), option=orjson.OPT_INDENT_2))
    if csv_path:
        Path(csv_path).write_text(summary.csv(), encoding="utf-8")


def _check_writable(path: str) -> None:
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise ConfigError(f"{path}: cannot write here (missing folder, a folder, or no permission)")


def _warn(message: str) -> None:
    click.echo(f"bc-eval: warning: {message}", err=True)
