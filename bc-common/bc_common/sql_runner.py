"""Read-only SQL on a task's SQLite database, run in the sandbox, and result-set comparison outside it.

The database file is mounted read-only at /data; inside, the runner opens it immutable, lets an authorizer allow
reading only (no ATTACH, no PRAGMA, no writes, no extensions), stops a query after a time budget, and returns at
most `max_rows` rows as JSON.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .sandbox import (
    Limits,
    RunResult,
    Sandbox,
    make_workspace,
    python_executable,
    remove_workspace,
    retry_wall_clock_cut,
    sandbox_for,
)

MAX_QUERY_CHARS = 16 * 1024

RUNNER = r'''
import json, sqlite3, sys, time
max_rows, budget, database = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
query = sys.stdin.read()
con = sqlite3.connect("file:" + database + "?mode=ro&immutable=1", uri=True)
allowed = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, getattr(sqlite3, "SQLITE_RECURSIVE", 33)}
def authorize(action, arg1, arg2, database, trigger):
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in ("load_extension", "readfile", "writefile"):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK if action in allowed else sqlite3.SQLITE_DENY
con.set_authorizer(authorize)
deadline = time.monotonic() + budget
con.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10000)
def cell(value):
    return value if not isinstance(value, bytes) else "x'" + value.hex() + "'"
try:
    cursor = con.execute(query)
    columns = [d[0] for d in cursor.description or []]
    rows = cursor.fetchmany(max_rows + 1)
    out = {"columns": columns, "rows": [[cell(v) for v in row] for row in rows[:max_rows]],
           "truncated": len(rows) > max_rows}
except sqlite3.Error as exc:
    message = str(exc)
    if message == "interrupted":
        message = "the query ran out of time"
    out = {"error": message[:500]}
except Exception as exc:
    out = {"error": (type(exc).__name__ + ": " + str(exc))[:500]}
sys.stdout.write(json.dumps(out))
'''


@dataclass
class QueryOutcome:
    """A query's columns and rows (at most the cap; `truncated` when there were more), or its error."""

    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False
    error: str | None = None
    run: RunResult | None = None

    def table(self, max_chars: int = 6000) -> str:
        """The result as the model reads it: a header, one line per row (tab-separated), and a row count."""
        lines = ["\t".join(self.columns)] + ["\t".join("NULL" if v is None else str(v) for v in row)
                                             for row in self.rows]
        text = "\n".join(lines)
        if len(text) > max_chars:
            text = text[:max_chars] + "\n[... cut]"
        more = " (more rows were cut off)" if self.truncated else ""
        return f"{text}\n({len(self.rows)} rows{more})"


def build_database(path: Path, script: str) -> None:
    """Create the SQLite file at `path` from an SQL script (the bootcamp's own, trusted)."""
    con = sqlite3.connect(path)
    try:
        con.executescript(script)
        con.commit()
    finally:
        con.close()
    path.chmod(0o644)
    path.parent.chmod(0o755)


async def run_query(data: Path, query: str, *, max_rows: int, limits: Limits, sandbox: Sandbox | None = None,
                    workspace: Path | None = None) -> QueryOutcome:
    """Run `query` read-only on `data`/db.sqlite in the sandbox; at most `max_rows` rows come back."""
    if not isinstance(query, str) or not query.strip():
        return QueryOutcome(error="the query is empty")
    if len(query) > MAX_QUERY_CHARS:
        return QueryOutcome(error=f"the query has {len(query)} characters; at most {MAX_QUERY_CHARS}")
    box = sandbox or sandbox_for()
    own = workspace is None
    folder = make_workspace(prefix="bc-sql-") if own else workspace
    try:
        # inside bubblewrap the data folder is /data, read-only; unsandboxed the runner reads the host path
        database = "/data/db.sqlite" if box.isolated else str(data / "db.sqlite")
        argv = [python_executable(), "-I", "-S", "-c", RUNNER, str(max_rows), str(max(0.5, limits.cpu_s * 0.8)),
                database]
        result = await retry_wall_clock_cut(  # the database is read-only: a second run is safe
            lambda: box.run(argv, workspace=folder, limits=limits, stdin=query.encode(),
                            read_only=[(str(data), "/data")] if box.isolated else []))
    finally:
        if own:
            remove_workspace(folder)
    return parse_outcome(result)


def parse_outcome(result: RunResult) -> QueryOutcome:
    """The runner's one JSON document, or an error saying how the run ended."""
    try:
        out = json.loads(result.stdout) if not result.output_truncated else None
    except ValueError:
        out = None
    if not isinstance(out, dict):
        return QueryOutcome(error=f"the query did not finish ({result.status_line()})", run=result)
    if "error" in out:
        return QueryOutcome(error=str(out["error"]), run=result)
    return QueryOutcome(columns=[str(c) for c in out.get("columns") or []], rows=list(out.get("rows") or []),
                        truncated=bool(out.get("truncated")), run=result)


def reference_rows(path: Path, query: str) -> list[list[Any]]:
    """The rows of a trusted (reference) query, read in process."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [list(row) for row in con.execute(query).fetchall()]
    finally:
        con.close()


def comparable(rows: list[list[Any]], ordered: bool) -> list[tuple[Any, ...]]:
    """Rows as compared: numbers rounded to 6 places (3 and 3.0 agree), and sorted unless the order counts."""
    def value(v: Any) -> Any:
        if isinstance(v, bool):
            return ("n", float(v))
        if isinstance(v, (int, float)):
            return ("n", round(float(v), 6))
        return ("s", "" if v is None else str(v)) if v is not None else ("null", "")

    out = [tuple(value(v) for v in row) for row in rows]
    return out if ordered else sorted(out)
