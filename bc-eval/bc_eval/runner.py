"""Run many trajectories on one event loop: `concurrency` in flight, `samples` per task, output as they finish.

    summary = evaluate(EvalConfig(tasks=["tasks.jsonl"], output="out.jsonl", model="builtin:noisy"))

Every finished trajectory is appended and flushed at once (`ordered` holds it back until its predecessors are
out); `resume` keeps the finished rows of the output and runs only what is missing or errored. The run's settings
are stored beside the output (`settings.py`); a resume under other settings is refused unless `force`.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bc_common.builtin_model import BuiltinModel, is_builtin
from bc_common.environment import Environments
from bc_common.errors import BcError, ConfigError, InputError
from bc_common.images import ImageLimits, hash_images
from bc_common.jsonl import JsonlWriter, ReadStats
from bc_common.locks import OutputLock
from bc_common.match import Player
from bc_common.pricing import Price, find_price
from bc_common.readers import read_records
from bc_common.records import check_task, task_id
from bc_common.rollout import Limits, run_trajectory
from bc_common.rubric import rubric_of
from bc_common.stamps import code_stamp

from . import seats
from .client import MAX_RESPONSE_BYTES, ChatClient, ModelError, RetryPolicy
from .judge import JudgeCache, LlmJudge, default_cache_dir
from .preflight import TaskChecks, choose_model
from .profiles import NAMES as PROFILE_NAMES
from .prompts import sent_prompt
from .resume import prepare_resume
from .seed_compat import seed_fields
from .settings import check_resume, run_settings, stored_settings, write_settings
from .summary import Summary
from .trace import TracePrinter


@dataclass
class EvalConfig:
    """Everything one run needs; the CLI fills it from flags."""

    tasks: list[str] = field(default_factory=list)  # files; empty = stdin
    output: str = "-"
    model: str | None = None  # None: the only model the server at base_url lists (a builtin only by name)
    base_url: str | None = None
    api_key: str | None = None  # from the environment only; never written anywhere
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    client: str = "aiohttp"  # or "openai"
    concurrency: int = 64
    samples: int = 1
    resume: bool = False
    ordered: bool = False
    limits: Limits | None = None  # None: the default caps and each bootcamp's own budgets (Limits.resolve)
    verify_kwargs: dict[str, Any] = field(default_factory=dict)
    verify_kwargs_file: str | None = None  # the FILE of --verify-correction-kwargs @FILE (read, never written)
    extra_params_file: str | None = None  # the FILE of --api-extra-params @FILE (read, never written)
    tool_config: str | None = None
    interaction_config: str | None = None
    reward_calculator: str | None = None
    registry_file: str | None = None
    timeout: float = 600.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    skip_invalid: bool = False
    progress: bool = False
    force: bool = False  # resume under other settings than the run that wrote the output
    max_response_bytes: int = MAX_RESPONSE_BYTES
    server_profile: str = "auto"  # or a name of bc_eval.profiles.PROFILES
    trace: bool = False  # every turn on stderr as it happens (bc_eval.trace)
    debug: str | None = None  # run only this task id, traced
    tool_transport: str = "local"  # or "mcp": the tools run in MCP sessions on the bc-toolserve at tool_server
    tool_server: str | None = None
    image_limits: ImageLimits = field(default_factory=ImageLimits)  # pixel budget and minimum edge of sent images
    image_root: str | None = None  # the folder task rows' image paths may not leave (None: each task file's)
    store_images: bool = True  # False: trajectories keep each image's sha256 instead of its bytes
    opponent_model: str | None = None  # a match against this model in every task (bc_eval.seats)
    opponent_base_url: str | None = None  # its server (default: --base-url)
    opponent_api_key_env: str | None = None  # the variable holding its key (default: --model's key, same server)
    opponent_api_key: str | None = None  # from the environment only; never written anywhere
    record_tokens: bool = False  # ask for token ids and logprobs; every model turn keeps what the server sent
    price: Price | None = None  # --price; None: the built-in table's price of the model, if it lists it
    judge_base_url: str | None = None  # the LLM judge of rubric bootcamps (with judge_model)
    judge_model: str | None = None
    judge_params: dict[str, Any] = field(default_factory=dict)  # --judge-param, over temperature 0, max_tokens 1024
    judge_api_key: str | None = None  # from the environment only; never written anywhere
    judge_cache: str | None = None  # None: bc_eval.judge.default_cache_dir()
    no_judge: bool = False  # grade rubric bootcamps without their judge components
    seed_compat: bool = False  # rows also carry the seed's full_context / response_context (bc_eval.seed_compat)

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError("concurrency (-c) must be at least 1")
        if self.samples < 1:
            raise ConfigError("--samples must be at least 1")
        if self.resume and self.output == "-":
            raise ConfigError("--resume needs an output file (-o OUT.jsonl)")
        if self.client not in ("aiohttp", "openai"):
            raise ConfigError("--client must be 'aiohttp' or 'openai'")
        if self.max_response_bytes < 1024:
            raise ConfigError("the response size limit must be at least 1 KiB")
        if self.server_profile not in PROFILE_NAMES:
            raise ConfigError(f"--server-profile must be one of {', '.join(PROFILE_NAMES)}")
        if self.debug:
            self.trace = True
        if self.tool_transport not in ("local", "mcp"):
            raise ConfigError("--tool-transport must be 'local' or 'mcp'")
        if (self.tool_transport == "mcp") != bool(self.tool_server):
            raise ConfigError("--tool-transport mcp and --tool-server URL go together")
        seats.check_opponent(self)


def _warn(message: str) -> None:
    print(f"bc-eval: warning: {message}", file=sys.stderr)


def make_model(config: EvalConfig, name: str | None = None) -> Any:
    """The model `name` (default: the config's): a built-in policy, the aiohttp client, or the `openai` SDK
    adapter."""
    name = name or config.model
    if not name:
        raise ConfigError("no model (choose_model picks one)")
    if is_builtin(name):
        model = BuiltinModel(name, config.params)
        if model.ignored:
            _warn(f"{name} ignores {', '.join(model.ignored)}")
        if config.base_url:
            _warn(f"{name} runs locally; the server at --base-url is not used")
        if config.record_tokens:
            _warn(f"{name} has no tokenizer: --record-tokens records nothing")
        return model
    kwargs = dict(api_key=config.api_key, headers=config.headers, params=config.params, timeout=config.timeout,
                  concurrency=config.concurrency, retry=config.retry, max_response_bytes=config.max_response_bytes,
                  server_profile=config.server_profile, record_tokens=config.record_tokens)
    if config.client == "openai":
        from .openai_client import OpenAIClient

        return OpenAIClient(config.base_url, name, **kwargs)
    return ChatClient(config.base_url, name, **kwargs)


def make_judge(config: EvalConfig) -> LlmJudge | None:
    """The LLM judge of `config` (None without --judge-model), its verdicts cached on disk."""
    if not config.judge_model:
        return None
    # max_tokens: a verdict is a short JSON object; a judge that never stops must not run to the context's end
    kwargs = dict(api_key=config.judge_api_key, params={"temperature": 0, "max_tokens": 1024, **config.judge_params}, timeout=config.timeout,
                  concurrency=config.concurrency, retry=config.retry, max_response_bytes=config.max_response_bytes,
                  server_profile="generic")
    client = ChatClient(config.judge_base_url, config.judge_model, **kwargs)
    return LlmJudge(client, config.judge_model, JudgeCache(config.judge_cache or default_cache_dir()))


def refuse_unjudged(env: Any, config: EvalConfig, judge: LlmJudge | None, where: str) -> None:
    """A rubric bootcamp with judge components needs a judge, or --no-judge saying it is graded without one."""
    rubric = rubric_of(env.reward)
    if rubric is not None and rubric.judged and judge is None and not config.no_judge:
        raise ConfigError(f"{where}: {env.data_source} is graded partly by an LLM judge: give --judge-base-url URL "
                          "and --judge-model NAME, or --no-judge to grade its other components only")


def make_environments(config: EvalConfig) -> Environments:
    kwargs = dict(tool_config=config.tool_config, interaction_config=config.interaction_config,
                  reward_calculator=config.reward_calculator, registry_file=config.registry_file)
    if config.tool_transport == "mcp":
        from .mcp_tools import McpEnvironments

        return McpEnvironments(config.tool_server, **kwargs)
    return Environments(**kwargs)


def evaluate(config: EvalConfig, *, summary: Summary | None = None) -> Summary:
    """Run the whole evaluation (blocking) and return its summary (kept rows of a resumed file included)."""
    summary = summary or Summary(k=config.samples, store_images=config.store_images,
                                 record_tokens=config.record_tokens, seed_compat=config.seed_compat)
    # one writer per output (and its settings file): a second run on it is refused before anything is read
    with OutputLock(config.output, prog="bc-eval"), asyncio.Runner(loop_factory=_loop_factory()) as runner:
        model = runner.run(choose_model(config))
        try:
            done = prepare_output(config, model, summary)
        except BcError:
            # nothing of a refused output is reported
            summary.__init__(k=config.samples, store_images=config.store_images, record_tokens=config.record_tokens)
            raise
        # flushed once per event-loop tick (see _write): every finished trajectory still reaches the file before
        # the loop waits on anything again
        writer = JsonlWriter(config.output, append=config.resume, flush_each=False)
        thresholds = gc.get_threshold()
        gc.freeze()  # long-lived imports and configs leave the collector's scans: less CPU per trajectory
        gc.set_threshold(max(thresholds[0], 20000), thresholds[1], thresholds[2])
        try:
            runner.run(_evaluate(config, model, writer, summary, done))
        finally:
            gc.set_threshold(*thresholds)
            gc.unfreeze()
            writer.close()
    return summary


def prepare_output(config: EvalConfig, model: str, summary: Summary) -> set[tuple[str, int]]:
    """Check a resume against the stored settings and the rows of OUT, keep its finished rows, store this run's
    settings beside it; returns the (task_id, sample) pairs already done."""
    if config.output == "-":
        return set()
    settings = run_settings(config, model)
    done: set[tuple[str, int]] = set()
    if config.resume:
        differing = check_resume(config.output, settings, config.force)
        if differing:
            _warn(f"--force: resuming {config.output} under other settings: {'; '.join(differing)}")
        elif os.path.isfile(config.output) and os.path.getsize(config.output) and \
                stored_settings(config.output) is None:
            _warn(f"{config.output} has no stored settings (an older bc-eval wrote it): only its rows' model "
                  "and sample indices can be checked")
        strict = not config.force
        state = prepare_resume(config.output, on_kept=summary.add, model=model if strict else None,
                               samples=config.samples if strict else None,
                               stamp_now=current_stamps(config) if strict else None)
        done = state.done
        if state.done or state.dropped_errors or state.torn_line:
            torn = f"; dropped the torn last line {config.output}:{state.torn_line} (a write cut short)" \
                if state.torn_line else ""
            print(f"bc-eval: resume: kept {len(state.done)} finished, rerunning {state.dropped_errors} errored"
                  f"{torn}", file=sys.stderr)
    write_settings(config.output, settings)
    return done


def current_stamps(config: EvalConfig) -> Callable[[dict[str, Any]], dict[str, str] | None]:
    """The stamp of the code that grades a trajectory's bootcamp now (None where its bootcamp cannot be found:
    the run reports that itself)."""
    envs = make_environments(config)

    def stamp(row: dict[str, Any]) -> dict[str, str] | None:
        source = (row.get("input") or {}).get("data_source")
        try:
            return code_stamp(envs.get(source).reward.__module__) if isinstance(source, str) else None
        except BcError:
            return None

    return stamp


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where installed (about a third less client CPU per model call), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _evaluate(config: EvalConfig, model_name: str, writer: JsonlWriter, summary: Summary,
                    done: set[tuple[str, int]]) -> None:
    model = make_model(config, model_name)
    price = find_price(model_name, config.price)
    judge = summary.judge = make_judge(config)
    tracer = TracePrinter(sys.stderr) if config.trace else None
    if hasattr(model, "detect_profile"):
        profile = await model.detect_profile()
        if tracer:
            tracer.note(f"server profile {profile} ({model.profiler.detected_by or 'not detected'})")
    checks = TaskChecks(config, make_environments(config), model_name, _warn)
    opponent = seats.make_opponent(config, make_model) if config.opponent_model else None
    stats = ReadStats()
    debug_found = False
    progress = Progress(enabled=config.progress)
    jobs: asyncio.Queue = asyncio.Queue(maxsize=config.concurrency * 2)
    pending: dict[int, dict[str, Any]] = {}
    next_out = 0
    running: list[asyncio.Task] = []  # the producer, then workers as the work needs them (never -c of them idle)
    workers = idle = 0
    broken = asyncio.Event()

    def start(coro: Any) -> None:
        task = asyncio.create_task(coro)
        task.add_done_callback(lambda t: broken.set() if not t.cancelled() and t.exception() else None)
        running.append(task)

    def raise_failure() -> None:
        for task in running:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise task.exception()

    def emit(seq: int, row: dict[str, Any]) -> None:
        nonlocal next_out
        if not config.ordered:
            _write(writer, summary, progress, row)
            return
        pending[seq] = row
        while next_out in pending:
            _write(writer, summary, progress, pending.pop(next_out))
            next_out += 1

    async def worker() -> None:
        nonlocal idle
        while True:
            idle += 1
            try:
                job = await jobs.get()
            finally:
                idle -= 1
            if job is None:
                return
            seq, record, sample, env, prompt = job
            trace = tracer.for_trajectory(task_id(record.data), sample) if tracer else None
            if opponent is not None:  # a match: the task's game between the model and the opponent
                row = await seats.play(record.data, sample, Player(model, model_name), opponent, env, config)
            else:
                row = await run_trajectory(record.data, sample, model, env, model_name=model_name,
                                           limits=config.limits, verify_kwargs=config.verify_kwargs,
                                           prompt=prompt, trace=trace, judge=judge)
            if price is not None:  # a match's usage is the evaluated model's seat: its price applies
                row["cost"] = price.cost(row["usage"])
            if config.seed_compat:
                row.update(seed_fields(row))
            emit(seq, row if config.store_images else without_images(row))

    async def submit(job: tuple[Any, ...]) -> None:
        """Queue a trajectory; start a worker when the queued ones outnumber the idle ones (up to -c), so memory
        follows the work, not the -c asked for."""
        nonlocal workers
        await jobs.put(job)
        if jobs.qsize() > idle and workers < config.concurrency:
            workers += 1
            start(worker())

    async def produce() -> None:
        nonlocal debug_found
        seq = 0
        async with contextlib.aclosing(_records(config, stats)) as records:  # stops the reader thread on any exit
            async for record in records:
                if config.debug is not None:
                    if task_id(record.data) != config.debug:
                        continue
                    debug_found = True
                env = await checks.environment(record)
                if opponent is not None:
                    seats.check_seated(env, record, [model_name, opponent.name])
                refuse_unjudged(env, config, judge, f"{record.source}:{record.line}")
                if not _identity_ok(checks, record, env, config, stats):
                    continue
                tid = task_id(record.data)
                if all((tid, sample) in done for sample in range(config.samples)):
                    continue
                ok, prompt = _sent_prompt(record, config, stats)  # once per task, not per sample
                if not ok:
                    continue
                for sample in range(config.samples):
                    if (tid, sample) not in done:
                        await submit((seq, record, sample, env, prompt))
                        seq += 1
        for _ in range(workers):
            await jobs.put(None)
        _report_skipped(stats)
        if config.debug is not None and not debug_found:
            raise ConfigError(f"--debug {config.debug}: no task with that id in the input")

    start(produce())
    failure = asyncio.create_task(broken.wait())
    try:
        while not all(task.done() for task in running):  # workers join while we wait: look again each time
            await asyncio.wait([failure, *(t for t in running if not t.done())], return_when=asyncio.FIRST_COMPLETED)
            raise_failure()
        raise_failure()
    finally:
        for task in (failure, *running):
            task.cancel()
        await asyncio.gather(failure, *running, return_exceptions=True)
        await model.aclose()
        if opponent is not None:
            await opponent.model.aclose()
        if judge is not None:
            await judge.client.aclose()
        progress.close()


def without_images(row: dict[str, Any]) -> dict[str, Any]:
    """The trajectory with every inline image (sent messages and the task's prompt) replaced by its sha256."""
    task = row["input"]
    if isinstance(task.get("prompt"), list):
        task = {**task, "prompt": hash_images(task["prompt"])}
    return {**row, "input": task, "messages": hash_images(row["messages"])}


def _write(writer: JsonlWriter, summary: Summary, progress: Progress, row: dict[str, Any]) -> None:
    failed = getattr(writer, "flush_failed", None)
    if failed is not None:  # the last batched flush could not write (disk full): stop the run with that error
        raise failed
    writer.write(row)
    if not getattr(writer, "flush_scheduled", False):
        writer.flush_scheduled = True
        asyncio.get_running_loop().call_soon(_flush, writer)
    summary.add_ran(row)
    progress.update(row)


def _flush(writer: JsonlWriter) -> None:
    """One flush per turn of the event loop. It runs as a callback, where an error would only be logged:
    keep it for the next write (and the writer's close) to raise."""
    writer.flush_scheduled = False
    try:
        writer.flush()
    except OSError as exc:
        writer.flush_failed = exc


def _identity_ok(checks: TaskChecks, record: Any, env: Any, config: EvalConfig, stats: ReadStats) -> bool:
    """True when the task's ground truth fits its verifier; False (counted) when it does not and --skip-invalid."""
    try:
        checks.identity_ok(record, env)
    except InputError as exc:
        if not config.skip_invalid:
            raise
        stats.skip(exc)
        return False
    return True


def _sent_prompt(record: Any, config: EvalConfig, stats: ReadStats) -> tuple[bool, Any]:
    """(True, the messages to send or None for the row's own) or (False, None) for a row whose images cannot be
    read, counted, under --skip-invalid."""
    try:
        return True, sent_prompt(record, config.image_limits, config.image_root)
    except InputError as exc:
        if not config.skip_invalid:
            raise
        stats.skip(exc)
        return False, None


def _report_skipped(stats: ReadStats) -> None:
    if stats.skipped:
        print(f"bc-eval: skipped {stats.skipped} invalid task rows (first: {stats.reasons[0]})", file=sys.stderr)


class _ReaderStopped(Exception):
    """The reader thread's signal that the event loop no longer wants records."""


async def _records(config: EvalConfig, stats: ReadStats):
    """Task records, read in a thread so a slow pipe never stalls the trajectories in flight."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue(maxsize=8)
    stop = threading.Event()

    def put(item: Any) -> None:
        if stop.is_set():  # the run is over (finished, failed or interrupted): nobody reads any more
            raise _ReaderStopped
        coro = queue.put(item)
        try:
            future = asyncio.run_coroutine_threadsafe(coro, loop)
        except RuntimeError:  # the loop is closed
            coro.close()
            raise _ReaderStopped from None
        future.result()

    def produce() -> None:
        batch: list[Any] = []
        try:
            for record in read_records(config.tasks, skip_invalid=config.skip_invalid, stats=stats,
                                       validate=check_task):
                batch.append(record)
                if len(batch) >= 64:
                    put(batch)
                    batch = []
            put(batch)
            put(None)
        except _ReaderStopped:
            return
        except Exception as exc:  # handed to the event loop, raised there
            try:
                put(exc)
            except _ReaderStopped:
                return

    thread = threading.Thread(target=produce, daemon=True, name="bc-eval-reader")
    thread.start()
    try:
        while True:
            item = await queue.get()
            if item is None:
                break
            if isinstance(item, BaseException):
                raise item
            for record in item:
                yield record
    finally:
        stop.set()
        while not queue.empty():  # unblock a producer waiting on a full queue
            queue.get_nowait()


async def dry_run(config: EvalConfig, out: Callable[[str], None]) -> int:
    """Check that tasks parse, bootcamps resolve, verifier kwargs fit, tools load, tool servers take our token,
    and the endpoint answers; returns the exit code (ConfigError / InputError for what stops a run)."""
    name = await choose_model(config)
    checks = TaskChecks(config, make_environments(config), name, _warn)
    stats = ReadStats()
    count, sources = 0, {}
    for record in read_records(config.tasks, skip_invalid=config.skip_invalid, validate=check_task, stats=stats):
        env = await checks.environment(record)
        if not _identity_ok(checks, record, env, config, stats) or not _sent_prompt(record, config, stats)[0]:
            continue
        sources.setdefault(record.data["data_source"], env)
        count += 1
    _report_skipped(stats)
    out(f"tasks: {count} rows parse")
    for source, env in sources.items():
        tools = ", ".join(env.tools.tools) if env.tools else "none"
        interactions = ", ".join(env.interactions) or "none"
        out(f"{source}: verifier {env.reward.__name__}; tools: {tools}; interaction: {interactions}")
        for server in await checks.tool_servers(env):
            out(f"{source}: tool server {server} answers and takes the token")
    model = make_model(config, name)
    out(f"model: {name}")
    try:
        started = time.perf_counter()
        out(f"model: {await model.check()} ({time.perf_counter() - started:.2f} s)")
        if hasattr(model, "detect_profile"):
            profile = await model.detect_profile()
            out(f"model: server profile {profile} ({model.profiler.detected_by or 'nothing detected'})")
    except ModelError as exc:
        out(f"model: endpoint check failed: {exc}")
        return 1
    finally:
        await model.aclose()
    return 0


class Progress:
    """A one-line progress view on stderr (only when stderr is a terminal)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.done = self.errors = self.successes = 0
        self.started = time.monotonic()
        self._last = 0.0

    def update(self, row: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.done += 1
        self.errors += row.get("status") == "error"
        self.successes += bool(row.get("success"))
        now = time.monotonic()
        if now - self._last > 0.2:
            self._last = now
            rate = self.done / max(now - self.started, 1e-9)
            sys.stderr.write(f"\rbc-eval: {self.done} trajectories, {self.successes} solved, "
                             f"{self.errors} errors, {rate:.1f}/s ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            sys.stderr.write("\n")
            sys.stderr.flush()
