"""Tools that run the model's code in the sandbox: `run_python`, `run_tests`, `shell` and `sql`.

They are ordinary `Tool`s (bc-eval and the verl adapter call them in process, bc-toolserve workers serve them).
Each instance has a private workspace, made from the task's identity by `workspace_files` on its first call and
removed on release; every call's metrics name the sandbox and its limits, so the trajectory row records where the
code ran.
A bootcamp subclasses one and says what its workspace, tests or database are:

    class MazeShell(ShellTool):
        def workspace_files(self, identity):
            return {"logs/app.log": identity["log"]}
"""
from __future__ import annotations

import json
import os
import shlex
import stat
from pathlib import Path
from typing import Any, ClassVar

from .bootcamp import Tool
from .errors import ToolError
from .function_runner import call_function, canonical
from .sandbox import Limits, RunResult, make_workspace, python_executable, remove_workspace, sandbox_for
from .sql_runner import build_database, run_query

MAX_SOURCE_CHARS = 64 * 1024


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Write `files` ({"a/b.txt": text}) under `root`; a path that leaves `root` is refused."""
    for relative, text in files.items():
        path = (root / relative).resolve()
        if not path.is_relative_to(root.resolve()) or Path(relative).is_absolute():
            raise ValueError(f"workspace path {relative!r} leaves the workspace")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


NOT_A_FILE = None  # what `read_tree` records for a symlink, a fifo or a socket: never followed, never read


def read_tree(root: Path, *, max_files: int = 2000, max_bytes: int = 8 << 20,
              max_depth: int = 32) -> dict[str, str | None] | None:
    """The regular files under `root` (relative path -> text) after a run, for a verifier that checks the
    workspace's state. Symlinks are recorded as `NOT_A_FILE` and never followed (nor are fifos and sockets
    opened); empty folders do not count. None when the tree holds more than `max_files` entries (folders
    included), `max_bytes` bytes or folders nested deeper than `max_depth` (a run that floods its workspace has
    no state worth comparing)."""
    files: dict[str, str | None] = {}
    total = entries = 0
    pending = [("", 0)]  # folders still to list (iterative: a run may nest folders thousands deep)
    while pending:
        folder, depth = pending.pop()
        with os.scandir(os.path.join(root, folder)) as listing:
            for entry in listing:
                entries += 1
                if entries > max_files:
                    return None
                relative = f"{folder}/{entry.name}" if folder else entry.name
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    if depth >= max_depth:
                        return None
                    pending.append((relative, depth + 1))
                elif not stat.S_ISREG(info.st_mode):
                    files[relative] = NOT_A_FILE
                else:
                    total += info.st_size
                    if total > max_bytes:
                        return None
                    fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                    with os.fdopen(fd, "rb") as handle:
                        files[relative] = handle.read(info.st_size + 1).decode("utf-8", errors="replace")
    return files


def run_report(result: RunResult, max_chars: int = 4000) -> str:
    """What the model reads after a run: how it ended, then stdout and stderr (each cut with a marker)."""
    def cut(text: str) -> str:
        return text if len(text) <= max_chars else text[:max_chars] + f"\n[... {len(text) - max_chars} more characters]"

    return f"{result.status_line()}\n--- stdout ---\n{cut(result.stdout)}\n--- stderr ---\n{cut(result.stderr)}"


class SandboxedTool(Tool):
    """Base of the tools that run code: a workspace per instance, limits from `limits` (or the config's
    `limits: {cpu_s: ...}`), and metrics naming the sandbox."""

    runs_code: ClassVar[bool] = True
    limits: ClassVar[Limits] = Limits(cpu_s=5, wall_s=10, memory_mb=512, processes=32, output_bytes=16 * 1024)

    def run_limits(self) -> Limits:
        overrides = self.config.get("limits") or {}
        if not overrides:
            return self.limits
        return Limits(**{**self.limits.__dict__, **overrides})

    def workspace_files(self, identity: dict[str, Any]) -> dict[str, str]:
        """The files the workspace starts with (relative path -> text); none by default."""
        return {}

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        box = sandbox_for()  # SandboxUnavailable (naming the install step) before any code could run
        return {"identity": identity, "calls": 0, "workspace": None, "box": box}

    def workspace(self, state: dict[str, Any]) -> Path:
        """The instance's workspace, made with its files on the first call (a trajectory that never calls the
        tool costs no files)."""
        if state["workspace"] is None:
            folder = make_workspace(prefix=f"bc-{self.name}-")
            try:
                write_tree(folder, self.workspace_files(state["identity"]))
            except BaseException:
                remove_workspace(folder)
                raise
            state["workspace"] = folder
        return state["workspace"]

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        state = self._instances.pop(instance_id, None)
        if state is not None and state["workspace"] is not None:
            remove_workspace(state["workspace"])

    def metrics(self, state: dict[str, Any], result: RunResult) -> dict[str, Any]:
        """The sandbox, its limits and how the run ended: what the trajectory's tool turn records."""
        return state["box"].describe(self.run_limits()) | {
            "exit_code": result.exit_code, "signal": result.signal, "timed_out": result.timed_out,
            "duration_s": result.duration_s, "output_truncated": result.output_truncated,
            "leftover_processes": result.leftover_processes}

    async def run(self, instance_id: str, argv: list[str], stdin: bytes = b"") -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        result = await state["box"].run(argv, workspace=self.workspace(state), limits=self.run_limits(), stdin=stdin)
        return run_report(result), 0.0, self.metrics(state, result)


class RunPythonTool(SandboxedTool):
    """`run_python`: code and optional stdin in, exit status, stdout and stderr out. Step reward 0."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "run_python",
            "description": "Run a Python 3 program in a sandbox (no network, a private working folder, a few "
                           "seconds of CPU) and see its exit status, stdout and stderr.",
            "parameters": {
                "type": "object",
                "properties": {"code": {"type": "string", "description": "The program's source."},
                               "stdin": {"type": "string", "description": "Text fed to its standard input."}},
                "required": ["code"],
                "additionalProperties": False,
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        code = parameters["code"]
        if len(code) > MAX_SOURCE_CHARS:
            raise ToolError("too_long", f"the program has {len(code)} characters; at most {MAX_SOURCE_CHARS}")
        return await self.run(instance_id, [python_executable(), "-I", "-c", code],
                              stdin=str(parameters.get("stdin") or "").encode())


class ShellTool(SandboxedTool):
    """`shell`: one command line in the task's workspace (its changes persist across calls). Step reward 0."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "shell",
            "description": "Run a POSIX shell command line in the task's working folder (files persist between "
                           "calls; no network; coreutils, find, grep, sed, awk, sort, python3 are available).",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string", "description": "e.g. ls -R; cat config.ini"}},
                "required": ["command"],
                "additionalProperties": False,
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        command = parameters["command"]
        if len(command) > MAX_SOURCE_CHARS:
            raise ToolError("too_long", f"the command has {len(command)} characters; at most {MAX_SOURCE_CHARS}")
        return await self.run(instance_id, ["/bin/sh", "-c", command])


class RunTestsTool(SandboxedTool):
    """`run_tests`: the task's VISIBLE tests against the model's code (the hidden ones are the verifier's).
    `visible_tests(identity)` gives (entry point, inputs, expected outputs); by default the identity's `entry`
    and `examples` ([{"args": [...], "expected": ...}]). Step reward 0: passing visible tests earns nothing."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "run_tests",
            "description": "Run the task's visible example tests against your code (the function it must define) "
                           "in a sandbox, and see which pass. The final grade uses other, hidden tests.",
            "parameters": {
                "type": "object",
                "properties": {"code": {"type": "string", "description": "Python source defining the function."}},
                "required": ["code"],
                "additionalProperties": False,
            },
        },
    }

    def visible_tests(self, identity: dict[str, Any]) -> tuple[str, list[list[Any]], list[Any]]:
        examples = identity.get("examples") or []
        return identity["entry"], [e["args"] for e in examples], [e["expected"] for e in examples]

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        code = parameters["code"]
        if len(code) > MAX_SOURCE_CHARS:
            raise ToolError("too_long", f"the code has {len(code)} characters; at most {MAX_SOURCE_CHARS}")
        entry, inputs, expected = self.visible_tests(state["identity"])
        run = await call_function(code, entry, inputs, limits=self.run_limits(), sandbox=state["box"])
        lines, passed = [], 0
        for k, (args, want) in enumerate(zip(inputs, expected, strict=True)):
            call = f"{entry}({', '.join(json.dumps(a) for a in args)})"[:300]
            if run.answered[k] and canonical(run.outputs[k]) == canonical(want):
                passed += 1
                lines.append(f"test {k + 1}: {call} == {json.dumps(want)[:200]}: ok")
            elif run.answered[k]:
                lines.append(f"test {k + 1}: {call} returned {json.dumps(run.outputs[k])[:200]}, expected "
                             f"{json.dumps(want)[:200]}")
            else:
                lines.append(f"test {k + 1}: {call}: {run.errors.get(k) or 'no result (crashed or timed out)'}")
        head = f"{passed} of {len(inputs)} visible tests passed"
        if run.load_error:
            head += f"; the code did not load: {run.load_error}"
        stderr = (run.run.stderr if run.run else "")[-1500:]
        text = "\n".join([head, *lines] + ([f"--- stderr ---\n{stderr}"] if stderr.strip() else []))
        assert run.run is not None
        return text, 0.0, self.metrics(state, run.run) | {"passed": passed, "total": len(inputs)}


class SqlTool(SandboxedTool):
    """`sql`: one read-only query on the task's SQLite database, at most `max_rows` rows back. The database is
    made from `database_script(identity)` (SQL) and mounted read-only; step reward 0."""

    max_rows: ClassVar[int] = 50
    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "sql",
            "description": "Run one read-only SQL query (SQLite) on the task's database and see the first rows of "
                           "the result. Only SELECT (and WITH ... SELECT) is allowed.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "e.g. SELECT name FROM sqlite_master"}},
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    }

    def database_script(self, identity: dict[str, Any]) -> str:
        """The SQL that creates and fills the task's database."""
        return identity["database"]

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        state = super().setup_state(identity, **kwargs)
        state["data"] = make_workspace(prefix="bc-sqldata-")
        build_database(state["data"] / "db.sqlite", self.database_script(identity))
        return state

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        state = self._instances.get(instance_id)
        if state is not None:
            remove_workspace(state["data"])
        await super().release(instance_id)

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        outcome = await run_query(state["data"], parameters["query"], max_rows=self.max_rows,
                                  limits=self.run_limits(), sandbox=state["box"], workspace=self.workspace(state))
        metrics = self.metrics(state, outcome.run) if outcome.run else {}
        if outcome.error:
            return f"Error: {outcome.error}", 0.0, metrics
        return outcome.table(), 0.0, metrics | {"rows": len(outcome.rows)}


def shell_quote(text: str) -> str:
    """A shell word for `text` (for policies that write commands)."""
    return shlex.quote(text)
