"""The LLM judge of rubric rewards: an OpenAI-compatible model asked through our client, its verdicts cached on disk.

    judge = LlmJudge(ChatClient(url, "qwen3-32b", api_key=key), JudgeCache(Path("~/.cache/...")))
    verdict = await judge.verdict(prompt, answer, JudgePrompt(...).parse)

A verdict is cached under blake2b(judge model, prompt, answer) only once it parses, so a re-run of the same
trajectories makes no judge call, and a failed or unparsable verdict is asked again next time. The counts (calls,
cache hits, failures, tokens) go to the run's summary.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import ConfigError
from bc_common.jsonl import atomic_write_bytes
from bc_common.model import ModelError, ModelRequest
from bc_common.rubric import JudgeError, Verdict

DEFAULT_API_KEY_ENV = "BC_JUDGE_API_KEY"


# the scale a constrained verdict takes: tenths (a grammar over free numbers lets a small model write digits forever)
VERDICT_LEVELS = [round(k / 10, 1) if k % 10 else k // 10 for k in range(11)]


def verdict_format(criteria: tuple[str, ...]) -> dict[str, Any]:
    """The `response_format` asking for exactly a JSON object of `criteria`, each a number in [0, 1] in tenths."""
    schema = {"type": "object", "properties": {c: {"type": "number", "enum": VERDICT_LEVELS} for c in criteria},
              "required": list(criteria), "additionalProperties": False}
    return {"type": "json_schema", "json_schema": {"name": "verdict", "strict": True, "schema": schema}}


def default_cache_dir() -> Path:
    """`$BC_CACHE_DIR/judge` (default ~/.cache/bootcamp-harness/judge), beside the real-server tier's cache."""
    root = os.environ.get("BC_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "bootcamp-harness")
    return Path(root) / "judge"


def cache_key(model: str, prompt: str, answer: str) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in (model, prompt, answer):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)  # lengths first: no two splits hash alike
    return digest.hexdigest()


class JudgeCache:
    """Verdict texts on disk, one small JSON file per key (`DIR/ab/abcd....json`), written atomically."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"--judge-cache {folder}: cannot create it: {exc.strerror}") from None
        if not os.access(self.folder, os.W_OK):
            raise ConfigError(f"--judge-cache {folder}: not writable")

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            entry = orjson.loads(self._path(key).read_bytes())
        except (OSError, orjson.JSONDecodeError):  # absent, or torn by a crash: ask again
            return None
        return entry if isinstance(entry, dict) and isinstance(entry.get("text"), str) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(exist_ok=True)
        atomic_write_bytes(path, orjson.dumps(entry))


@dataclass
class JudgeStats:
    calls: int = 0  # requests answered by the judge model (a retried request counts once)
    cached: int = 0  # verdicts read from the cache
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class LlmJudge:
    """A `bc_common.rubric.Judge` over a chat client (ChatClient or the openai SDK adapter)."""

    def __init__(self, client: Any, model: str, cache: JudgeCache | None):
        self.client, self.model, self.cache = client, model, cache
        self.stats = JudgeStats()
        self.structured = True  # asks for a JSON-schema answer until the server refuses one

    async def _ask(self, prompt: str, criteria: tuple[str, ...]) -> Any:
        """The judge's reply; constrained to a JSON object of `criteria` in [0, 1] (vLLM, SGLang, llama.cpp and
        the OpenAI API take `response_format` json_schema), asked again without it once a server refuses it."""
        messages = [{"role": "user", "content": prompt}]
        if criteria and self.structured:
            try:
                return await self.client.complete(ModelRequest(messages, [], params={
                    "response_format": verdict_format(criteria)}))
            except ModelError as exc:
                if exc.type != "bad_request":
                    raise
                self.structured = False
        return await self.client.complete(ModelRequest(messages, []))

    async def verdict(self, prompt: str, answer: str, parse: Callable[[str], dict[str, float]],
                      criteria: tuple[str, ...] = ()) -> Verdict:
        key = cache_key(self.model, prompt, answer)
        entry = self.cache.get(key) if self.cache else None
        if entry is not None:
            try:
                criteria = parse(entry["text"])
            except JudgeError:
                entry = None  # a verdict cached under another parser: ask again
            else:
                self.stats.cached += 1
                return Verdict(criteria, self.model, {}, cached=True)
        try:
            reply = await self._ask(prompt, criteria)
        except ModelError as exc:
            self.stats.failed += 1
            raise JudgeError("judge_unreachable", f"{exc.type}: {exc.message}") from None
        usage = {k: int(v) for k, v in (reply.usage or {}).items()
                 if k in ("prompt_tokens", "completion_tokens") and isinstance(v, int)}
        self.stats.calls += 1
        self.stats.prompt_tokens += usage.get("prompt_tokens", 0)
        self.stats.completion_tokens += usage.get("completion_tokens", 0)
        text = reply.message.get("content") or ""
        try:
            criteria = parse(text)
        except JudgeError:
            self.stats.failed += 1
            raise
        if self.cache:
            self.cache.put(key, {"model": self.model, "text": text, "usage": usage})
        return Verdict(criteria, self.model, usage)
