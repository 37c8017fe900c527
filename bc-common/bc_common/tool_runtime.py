"""The in-process tool runtime shared by bc-eval and the verl adapter.

One `ToolRuntime` per process holds tool objects; one `ToolSession` per trajectory creates each tool
instance once (on first use), validates arguments against the tool's schema, executes, and always releases.
A bad call (unknown tool, malformed JSON, schema violation, tool exception) becomes an error text for the
model and a typed error on the turn; it never crashes the run.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator

from .errors import ToolError
from .seeding import new_instance_id
from .tool import Tool
from .tool_config import ToolSpec, load_tool_config
from .types import ToolResult

MAX_ARGUMENT_BYTES = 1 << 20

class ToolRuntime:
    """Tool objects by function name, with their argument validators."""

    def __init__(self, tools: dict[str, Tool]):
        self.tools = dict(tools)
        schemas = {name: tool.tool_schema.get("function", {}).get("parameters") or {"type": "object"}
                   for name, tool in self.tools.items()}
        self._validators = {name: Draft202012Validator(schema) for name, schema in schemas.items()}
        self._accepts = {name: simple_acceptor(schema) for name, schema in schemas.items()}

    @classmethod
    def from_specs(cls, specs: list[ToolSpec]) -> ToolRuntime:
        return cls({spec.name: spec.instantiate() for spec in specs})

    @classmethod
    def from_config(cls, path: str | Path) -> ToolRuntime:
        return cls.from_specs(load_tool_config(path))

    def schemas(self, names: list[str] | None = None) -> list[dict[str, Any]]:
        """OpenAI tool schemas for `names` (all tools when None), in config order."""
        return [t.tool_schema for n, t in self.tools.items() if names is None or n in names]

    def session(self, create_kwargs: dict[str, dict[str, Any]] | None = None,
                allowed: list[str] | None = None, task: dict[str, Any] | None = None) -> ToolSession:
        """A session for one trajectory. `create_kwargs` maps tool name to kwargs for `create`
        (the row's `extra_info.tools_kwargs[name].create_kwargs`); `allowed` limits the offered tools. `task` (the
        row) is for runtimes whose tools run elsewhere per task (bc-eval over MCP); unused in process."""
        return ToolSession(self, create_kwargs or {}, allowed)

    def validate(self, name: str, arguments: dict[str, Any]) -> str | None:
        """The first schema violation as text, or None when the arguments are valid."""
        accepts = self._accepts[name]
        if accepts is not None and accepts(arguments):
            return None  # a simple schema the arguments satisfy; jsonschema words the rejections
        error = next(iter(self._validators[name].iter_errors(arguments)), None)
        if error is None:
            return None
        path = "/".join(map(str, error.absolute_path))
        return f"{path + ': ' if path else ''}{error.message}"


class ToolSession:
    """Per-trajectory tool state: created once, used across turns, released at `close()`."""

    def __init__(self, runtime: ToolRuntime, create_kwargs: dict[str, dict[str, Any]],
                 allowed: list[str] | None):
        self.runtime = runtime
        self.create_kwargs = create_kwargs
        self.allowed = [n for n in runtime.tools if allowed is None or n in allowed]
        self.instances: dict[str, str] = {}
        self._lock = asyncio.Lock()
        self._late: list[tuple[str, asyncio.Future]] = []  # creates whose caller was cancelled: released at close
        self.closed = False

    @property
    def schemas(self) -> list[dict[str, Any]]:
        return self.runtime.schemas(self.allowed)

    async def _instance(self, name: str) -> str:
        instance_id = self.instances.get(name)
        if instance_id is not None:  # created already: no lock to take (instances are only ever added)
            return instance_id
        async with self._lock:
            if name not in self.instances:
                if self.closed:
                    raise ToolError("session_closed", "the tool session has ended")
                tool = self.runtime.tools[name]
                kwargs = dict(self.create_kwargs.get(name) or {})
                if type(tool).create is Tool.create:  # the base create never suspends: nothing to shield
                    instance_id = await tool.create(new_instance_id(), **kwargs)
                else:
                    creating = asyncio.ensure_future(tool.create(new_instance_id(), **kwargs))
                    try:
                        instance_id = await asyncio.shield(creating)
                    except asyncio.CancelledError:
                        # the caller gave up (its session ended), the create may still land: close() releases it
                        self._late.append((name, creating))
                        raise
                if isinstance(instance_id, tuple):  # verl's and some seed tools' (instance_id, response)
                    instance_id = instance_id[0]
                if self.closed:  # closed while the create ran
                    await _release(tool, instance_id)
                    raise ToolError("session_closed", "the tool session has ended")
                self.instances[name] = instance_id
            return self.instances[name]

    async def call(self, name: str, arguments: str | dict[str, Any] | None) -> ToolResult:
        """Run one tool call from the model. Never raises for the model's mistakes."""
        if name not in self.allowed:
            offered = ", ".join(self.allowed) or "none"
            return _error("unknown_tool", f"Error: unknown tool {name!r}. Available tools: {offered}.")
        if isinstance(arguments, (str, bytes)):
            if len(arguments) > MAX_ARGUMENT_BYTES:
                return _error("invalid_arguments", "Error: tool arguments are too large.")
            try:
                arguments = orjson.loads(arguments) if arguments.strip() else {}
            except orjson.JSONDecodeError as exc:
                return _error("invalid_arguments", f"Error: tool arguments are not valid JSON ({exc}).")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return _error("invalid_arguments", "Error: tool arguments must be a JSON object.")
        problem = self.runtime.validate(name, arguments)
        if problem:
            return _error("invalid_arguments", f"Error: invalid arguments for {name}: {problem}")
        return await self._run(name, arguments)

    async def _run(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Execute a call whose arguments are valid (on the session's instance of the tool, created if need be)."""
        tool = self.runtime.tools[name]
        try:
            instance_id = await self._instance(name)
            result = ToolResult.of(await tool.execute(instance_id, arguments), f"tool {name}")
        except ToolError as exc:
            return _error(exc.kind, f"Error: {exc.message}")
        except Exception as exc:  # a tool bug must not end the trajectory
            return _error("tool_exception", f"Error: tool {name} failed: {type(exc).__name__}: {exc}")
        return result

    async def close(self) -> dict[str, float]:
        """Collect `calc_reward` of every created instance and release them all (always, even on error)."""
        rewards: dict[str, float] = {}
        if self.closed:
            return rewards
        self.closed = True
        for name, instance_id in self.instances.items():
            tool = self.runtime.tools[name]
            try:
                rewards[name] = float(await tool.calc_reward(instance_id))
            except Exception:
                rewards[name] = 0.0
            finally:
                await _release(tool, instance_id)
        for name, creating in self._late:
            await asyncio.wait({creating})
            if creating.cancelled() or creating.exception() is not None:
                continue
            instance_id = creating.result()
            await _release(self.runtime.tools[name], instance_id[0] if isinstance(instance_id, tuple) else instance_id)
        return rewards


async def _release(tool: Tool, instance_id: str) -> None:
    try:
        await tool.release(instance_id)
    except Exception:
        pass  # release is best effort: the tool's own TTL is the backstop


_ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$comment", "deprecated", "readOnly",
                          "writeOnly"})
_TYPE_CHECKS: dict[str, Any] = {
    "string": lambda v: v.__class__ is str,
    "boolean": lambda v: v.__class__ is bool,
    "null": lambda v: v is None,
    "object": lambda v: v.__class__ is dict,
    "array": lambda v: v.__class__ is list,
    "integer": lambda v: v.__class__ is int,
    "number": lambda v: v.__class__ is int or v.__class__ is float,
}


def simple_acceptor(schema: Any) -> Any:
    """A fast check for the usual tool schema (an object of typed properties, `required`, `additionalProperties:
    false`, annotations): True only where jsonschema accepts too. None for any other schema. Its False means
    "ask jsonschema", which decides and words the error: decisions and messages stay jsonschema's."""
    if not isinstance(schema, dict) or set(schema) - _ANNOTATIONS - {"type", "properties", "required",
                                                                      "additionalProperties"}:
        return None
    if schema.get("type") != "object":
        return None
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra_ok = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(required, list) or not isinstance(extra_ok, bool):
        return None
    if not all(isinstance(r, str) for r in required):
        return None
    checks = {}
    for key, sub in properties.items():
        if sub is True:
            continue
        if not isinstance(sub, dict) or set(sub) - _ANNOTATIONS - {"type"} or "type" not in sub:
            return None
        kind = sub["type"]
        if not isinstance(kind, str) or kind not in _TYPE_CHECKS:
            return None
        checks[key] = _TYPE_CHECKS[kind]
    required_keys = tuple(required)
    known = frozenset(properties)

    def accepts(arguments: dict[str, Any]) -> bool:
        if arguments.__class__ is not dict:
            return False
        for key in required_keys:
            if key not in arguments:
                return False
        for key, value in arguments.items():
            check = checks.get(key)
            if check is not None:
                if not check(value):
                    return False
            elif not extra_ok and key not in known:
                return False
        return True

    return accepts


def _error(kind: str, text: str) -> ToolResult:
    return ToolResult(text=text, reward=0.0, metrics={}, error={"type": kind, "message": text})
