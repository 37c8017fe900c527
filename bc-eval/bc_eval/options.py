"""bc-eval's flags in groups: each group turns its flags into `EvalConfig` fields (handed on as `fields`), so
`bc_eval.cli.main` reads as the run it starts, not as 49 parameters."""
from __future__ import annotations

import functools
import inspect
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from bc_common.cli_options import DAY, Count, Number, output_option, skip_invalid_option
from bc_common.config import parse_assignments, parse_json_object
from bc_common.errors import ConfigError
from bc_common.images import ImageLimits
from bc_common.pricing import parse_price
from bc_common.rollout import Limits

from .client import RetryPolicy
from .judge import DEFAULT_API_KEY_ENV as DEFAULT_JUDGE_KEY_ENV
from .profiles import NAMES as PROFILE_NAMES

F = TypeVar("F", bound=Callable[..., Any])

TURNS = Count(1, 1_000_000)
MAX_CONCURRENCY = 100_000  # beyond the sockets one process may open


def config_group(build: Callable[..., dict[str, Any]], *options: Callable[[F], F]) -> Callable[[F], F]:
    """Flags whose values `build(**values)` turns into EvalConfig fields, merged into the command's `fields`."""
    names = list(inspect.signature(build).parameters)

    def decorate(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in names}
            kwargs["fields"] = {**kwargs.get("fields", {}), **build(**values)}
            return f(*args, **kwargs)

        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate


def _endpoint(model: str | None, base_url: str | None, api_key_env: str, legacy_api_key: str | None,
              client: str, server_profile: str, price: str | None) -> dict[str, Any]:
    if legacy_api_key:
        warn("--api-key on the command line leaks into shell history and `ps`; "
             f"put the key in ${api_key_env} instead. Using it for this run only.")
    return dict(model=model, base_url=base_url, api_key=legacy_api_key or os.environ.get(api_key_env) or None,
                client=client, server_profile=server_profile, price=parse_price(price) if price else None)


endpoint_options = config_group(
    _endpoint,
    click.option("--model", "--api-model", "model", default=None,
                 help="Model name sent to the server (default: the server's only model), or builtin:reference / "
                      "builtin:noisy / builtin:baseline/NAME (a bootcamp's declared baseline; builtin:random is "
                      "baseline/random) (no network)."),
    click.option("--base-url", "--api-url", "base_url", envvar="OPENAI_BASE_URL", default=None,
                 help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 [env OPENAI_BASE_URL]."),
    click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
                 help="Environment variable holding the API key (keys are never taken from the command line)."),
    click.option("--api-key", "legacy_api_key", default=None, hidden=True),
    click.option("--client", type=click.Choice(["aiohttp", "openai"]), default="aiohttp", show_default=True,
                 help="HTTP client: our fast aiohttp one, or the openai SDK for providers with quirks."),
    click.option("--server-profile", type=click.Choice(PROFILE_NAMES), default="auto", show_default=True,
                 help="What the server needs in a request (vllm, sglang, llamacpp, openai; generic: none of it); "
                      "auto detects it from GET /models and the answers' fields. See docs/bc-eval.md."),
    click.option("--price", default=None, metavar="IN,OUT",
                 help="USD per million input and output tokens (e.g. 2.5,10): every row gets its cost, the summary "
                      "sums it per bootcamp and run [default: the built-in table's price for well-known hosted "
                      "models, e.g. gpt-4o; none otherwise]."),
)


def _opponent(opponent_model: str | None, opponent_base_url: str | None,
              opponent_api_key_env: str | None) -> dict[str, Any]:
    key = None
    if opponent_api_key_env:
        key = os.environ.get(opponent_api_key_env) or None
        if key is None:
            raise ConfigError(f"--opponent-api-key-env {opponent_api_key_env}: that environment variable is not set")
    return dict(opponent_model=opponent_model, opponent_base_url=opponent_base_url,
                opponent_api_key_env=opponent_api_key_env, opponent_api_key=key)


opponent_options = config_group(
    _opponent,
    click.option("--opponent-model", default=None, metavar="MODEL",
                 help="Play every task as a match against this model in the bootcamp's seats (multi-player "
                      "bootcamps only): a model of --opponent-base-url, or builtin:reference / builtin:random / "
                      "builtin:noisy / builtin:baseline/NAME. Seats alternate across samples (--samples 2 plays "
                      "both sides); the row records every seat."),
    click.option("--opponent-base-url", default=None, metavar="URL",
                 help="The opponent's OpenAI-compatible endpoint [default: --base-url]."),
    click.option("--opponent-api-key-env", default=None, metavar="VAR",
                 help="Environment variable holding the opponent's key [default: --model's key when both use the "
                      "same server, else none]."),
)


def _request(params: tuple[str, ...], api_extra_params: str | None, headers: tuple[str, ...],
             api_extra_headers: str | None, timeout: float, retries: int, backoff: float,
             max_response_mb: float, record_tokens: bool) -> dict[str, Any]:
    return dict(params={**mapping(api_extra_params, "--api-extra-params"), **parse_assignments(list(params))},
                extra_params_file=at_file(api_extra_params),
                record_tokens=record_tokens,
                headers=_headers(headers, api_extra_headers), timeout=timeout,
                retry=RetryPolicy(max_retries=retries, base_delay=backoff),
                max_response_bytes=int(max_response_mb * (1 << 20)))


request_options = config_group(
    _request,
    click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
                 help="Request parameter (temperature=0.7, extra_body={...}); builtin:noisy takes error_rate and "
                      "seed."),
    click.option("--api-extra-params", default=None, hidden=True),
    click.option("--header", "headers", multiple=True, metavar="NAME:VALUE",
                 help="Extra HTTP header (never recorded)."),
    click.option("--api-extra-headers", default=None, hidden=True),
    click.option("--timeout", type=Number(0, DAY, min_open=True), default=600.0, show_default=True,
                 help="Seconds per model call attempt."),
    click.option("--retries", type=Count(0, 100), default=5, show_default=True,
                 help="Retries of 429, 5xx, timeouts, connection errors."),
    click.option("--backoff", type=Number(0, 3600), default=0.5, show_default=True,
                 help="First retry delay in seconds (doubles)."),
    click.option("--max-response-mb", type=Number(0, 4096, min_open=True), default=32.0, show_default=True,
                 help="Largest model answer accepted, in MiB (a larger one is refused as it arrives)."),
    click.option("--record-tokens", is_flag=True,
                 help="Ask the server for token ids and logprobs (in its --server-profile's dialect) and keep them "
                      "on every model turn (turns[].tokens)."),
)


def _limits(max_assistant_turns: int | None, max_user_turns: int | None, max_tool_calls_per_turn: int | None,
            max_tool_calls: int | None, max_tool_turns_per_interaction: int | None,
            max_interaction_turns: int | None) -> dict[str, Any]:
    assistant, user = _turn_limits(max_assistant_turns, max_user_turns, max_tool_turns_per_interaction,
                                   max_interaction_turns)
    try:
        return dict(limits=Limits(assistant, user, max_tool_calls_per_turn, max_tool_calls))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


limit_options = config_group(
    _limits,
    click.option("--max-assistant-turns", type=TURNS, default=None,
                 help="Model calls per trajectory [default: 5, or more where a bootcamp needs more]."),
    click.option("--max-user-turns", type=Count(0, 1_000_000), default=None,
                 help="Tool responses and interaction replies [default: 20, or the bootcamp's own]."),
    click.option("--max-tool-calls-per-turn", type=TURNS, default=None,
                 help="Tool calls one assistant message may make (more: none run, the trajectory stops) "
                      "[default: 16, or the bootcamp's own]."),
    click.option("--max-tool-calls", type=TURNS, default=None,
                 help="Tool calls per trajectory [default: 64, or the bootcamp's own]."),
    click.option("--max-tool-turns-per-interaction", type=Count(0, 1_000_000), default=None, hidden=True),
    click.option("--max-interaction-turns", type=TURNS, default=None, hidden=True),
)


def _environment(tool_config: str | None, tool_transport: str, tool_server: str | None,
                 interaction_config: str | None, reward_calculator: str | None, verify_correction_kwargs: str | None,
                 registry: str | None) -> dict[str, Any]:
    return dict(tool_config=tool_config, tool_transport=tool_transport, tool_server=tool_server,
                interaction_config=interaction_config, reward_calculator=reward_calculator,
                verify_kwargs=mapping(verify_correction_kwargs, "--verify-correction-kwargs"),
                verify_kwargs_file=at_file(verify_correction_kwargs), registry_file=registry)


environment_options = config_group(
    _environment,
    click.option("--tool-config", default=None, type=click.Path(dir_okay=False), help="Tools for every task."),
    click.option("--tool-transport", type=click.Choice(["local", "mcp"]), default="local", show_default=True,
                 help="Run the tools in process, or in MCP sessions on a bc-toolserve (--tool-server; token from "
                      "BC_TOOLSERVE_TOKEN)."),
    click.option("--tool-server", default=None, metavar="URL", help="MCP endpoint, e.g. http://127.0.0.1:8000/mcp."),
    click.option("--interaction-config", default=None, type=click.Path(dir_okay=False),
                 help="Interaction for every task."),
    click.option("--reward-calculator", "--reward-calculator-class", "reward_calculator", default=None,
                 metavar="DOTTED", help="Verifier class for every task."),
    click.option("--verify-correction-kwargs", default=None, help="Verifier kwargs: JSON, @file or k:v,k:v."),
    click.option("--bootcamp-registry", "registry", default=None, type=click.Path(dir_okay=False),
                 help="Seed bootcamp_registry.jsonl resolving data_source values."),
)


def _judge(judge_base_url: str | None, judge_model: str | None, judge_api_key_env: str, judge_cache: str | None,
           no_judge: bool, judge_params: tuple[str, ...] = ()) -> dict[str, Any]:
    if no_judge and (judge_base_url or judge_model):
        raise ConfigError("--no-judge and --judge-base-url / --judge-model exclude each other")
    if bool(judge_base_url) != bool(judge_model):
        raise ConfigError("--judge-base-url URL and --judge-model NAME go together")
    return dict(judge_base_url=judge_base_url, judge_model=judge_model,
                judge_api_key=os.environ.get(judge_api_key_env) or None, judge_cache=judge_cache, no_judge=no_judge,
                judge_params=parse_assignments(list(judge_params)))


judge_options = config_group(
    _judge,
    click.option("--judge-base-url", default=None, metavar="URL",
                 help="OpenAI-compatible server of the LLM judge that grades rubric bootcamps (e.g. fact_summary)."),
    click.option("--judge-model", default=None, metavar="NAME", help="The judge's model name on that server."),
    click.option("--judge-param", "judge_params", multiple=True, metavar="KEY=VALUE",
                 help="Request parameter of the judge's calls, over temperature=0 and max_tokens=1024 (e.g. "
                      "'chat_template_kwargs={\"enable_thinking\": false}')."),
    click.option("--judge-api-key-env", default=DEFAULT_JUDGE_KEY_ENV, show_default=True, metavar="VAR",
                 help="Environment variable holding the judge's API key."),
    click.option("--judge-cache", default=None, metavar="DIR",
                 help="Where verdicts are cached by hash of (judge model, prompt, answer), so a re-run makes no "
                      "judge call [default: $BC_CACHE_DIR/judge, i.e. ~/.cache/bootcamp-harness/judge]."),
    click.option("--no-judge", is_flag=True,
                 help="Grade rubric bootcamps without their judge components (recorded as skipped; the score is "
                      "the other components' weighted mean)."),
)


def _images(max_image_pixels: int | None, min_image_edge: int | None, image_root: str | None,
            no_store_images: bool) -> dict[str, Any]:
    try:
        limits = ImageLimits.resolve(max_image_pixels, min_image_edge)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return dict(image_limits=limits, image_root=image_root, store_images=not no_store_images)


image_options = config_group(
    _images,
    click.option("--max-image-pixels", type=Count(0, 2**40), default=None, metavar="N",
                 help="Scale images larger than N pixels (width x height) down, keeping the aspect; 0: no limit "
                      "[env MAX_IMAGE_SIZE; default none]."),
    click.option("--min-image-edge", type=Count(0, 1 << 16), default=None, metavar="N",
                 help="Scale images whose shorter edge is below N pixels up; 0: no limit [env MIN_IMAGE_EDGE]."),
    click.option("--image-root", type=click.Path(file_okay=False), default=None, metavar="DIR",
                 help="The folder task rows' image paths (relative to their task file) may not leave [default: "
                      "each task file's own folder]."),
    click.option("--no-store-images", is_flag=True,
                 help="Trajectories keep each image's sha256 (sha256:<hex>) instead of its bytes."),
)


def _run(concurrency: int, samples: int, ordered: bool, skip_invalid: bool, trace: bool,
         debug_task: str | None) -> dict[str, Any]:
    return dict(concurrency=concurrency, samples=samples, ordered=ordered, skip_invalid=skip_invalid, trace=trace,
                debug=debug_task)


run_options = config_group(
    _run,
    click.option("-c", "--concurrency", "--max-concurrent", "concurrency", type=Count(1, MAX_CONCURRENCY),
                 default=64, show_default=True, help="Trajectories in flight (at most one per (task, sample))."),
    click.option("--samples", type=Count(1, 100_000), default=1, show_default=True, help="Runs per task (pass@k)."),
    click.option("--ordered", is_flag=True, help="Emit trajectories in input order."),
    skip_invalid_option,
    click.option("--trace", is_flag=True, help="Print every turn to stderr as it happens (messages, tool calls and "
                                               "results, interaction replies, the verifier's answer and score)."),
    click.option("--debug", "debug_task", default=None, metavar="TASK_ID",
                 help="Run only the task with this id, traced (--trace): debug one task, then scale."),
)


def _output(output: str | None, resume: bool, force: bool, resume_from_result_path: str | None) -> dict[str, Any]:
    if resume_from_result_path:
        output, resume = resume_from_result_path, True
    return dict(output=output, resume=resume, force=force)


output_options = config_group(
    _output,
    output_option(help="Trajectories go here (default stdout).", default=None, metavar="OUT.jsonl"),
    click.option("--resume", is_flag=True, help="Keep finished trajectories of OUT; rerun errored and missing ones."),
    click.option("--force", is_flag=True, help="--resume even under other settings than those stored with OUT."),
    click.option("--resume-from-result-path", default=None, hidden=True, help="Seed alias: -o PATH --resume."),
)


# The seed's flags bc-eval refuses, and why: accepting them with no effect would let a run look like what it is not.
REFUSED_SEED_FLAGS = {
    "--tokenizer-path": "token counts come from the server's usage fields (prompt_tokens, completion_tokens), which "
                        "count what the server really received (a local chat template may differ from the "
                        "server's, and would need transformers and the model's files here): drop the flag",
    "--evaluator-class": "bc-eval is the evaluator: the rollout loop is fixed, what a task checks is its verifier. "
                         "Give a verifier with --reward-calculator DOTTED (a RewardCalculator) and its options with "
                         "--verify-correction-kwargs; environment replies are a bootcamp's Interaction",
}


def _seed_noops(verbose: bool, tokenizer_path: str | None, evaluator_class: str | None) -> dict[str, Any]:
    for flag, value in (("--tokenizer-path", tokenizer_path), ("--evaluator-class", evaluator_class)):
        if value:
            raise ConfigError(f"{flag} is not supported: {REFUSED_SEED_FLAGS[flag]}")
    return {}


seed_noop_options = config_group(
    _seed_noops,
    click.option("--verbose", is_flag=True, hidden=True),
    click.option("--tokenizer-path", default=None, hidden=True),
    click.option("--evaluator-class", default=None, hidden=True),
)


def at_file(text: str | None) -> str | None:
    """The FILE of a seed-style `@FILE` value (a file the run reads), else None."""
    return text[1:] if text and text.startswith("@") else None


def mapping(text: str | None, flag: str) -> dict[str, Any]:
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
        return parse_json_object(stripped, flag)
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


def _turn_limits(assistant: int | None, user: int | None, tool_turns: int | None,
                 interaction_turns: int | None) -> tuple[int | None, int | None]:
    """Our turn budgets, from the seed's deprecated per-interaction flags where given: I interaction rounds of
    T tool turns and one answer each allow I*(T+1) assistant turns and I*(T+1) user turns (T tool responses and
    one interaction reply per round). A flag of ours given too wins; None leaves the bootcamp's default."""
    if tool_turns is None and interaction_turns is None:
        return assistant, user
    rounds = 1 if interaction_turns is None else interaction_turns
    per_round = (4 if tool_turns is None else tool_turns) + 1
    mapped = (rounds * per_round if assistant is None else assistant,
              rounds * per_round if user is None else user)
    warn("--max-tool-turns-per-interaction and --max-interaction-turns are deprecated; using "
         f"--max-assistant-turns {mapped[0]} --max-user-turns {mapped[1]}")
    return mapped


def warn(message: str) -> None:
    click.echo(f"bc-eval: warning: {message}", err=True)
