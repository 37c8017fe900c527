"""Grade the final ```sql block: run it read-only in the sandbox (row cap) and compare its result set with the
reference query's (order counts only when the question asks for one)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar

from bc_common.answer_blocks import last_code_block
from bc_common.sandbox import Limits, make_workspace, remove_workspace, run_blocking
from bc_common.sandboxed_reward import SandboxedReward
from bc_common.sql_runner import build_database, comparable, reference_rows, run_query

from .database import SIZES, database_script
from .generator import reference_query
from .questions import BY_KEY

MAX_ROWS = 1000
LIMITS = Limits(cpu_s=3, wall_s=15, memory_mb=256, processes=8, output_bytes=1 << 20)


@functools.lru_cache(maxsize=64)
def _database(seed: int, size: str) -> bytes:
    """The task's database file, built once per (seed, size): graders of many queries on one database (a policy's
    retries, the conformance suite's cross-instance pairs) copy it instead of rebuilding it."""
    data = make_workspace(prefix="bc-sqldb-")
    try:
        build_database(data / "db.sqlite", database_script(seed, size))
        return (data / "db.sqlite").read_bytes()
    finally:
        remove_workspace(data)


def _place(data: Path, seed: int, size: str) -> Path:
    """The task's database copied into the workspace `data`, readable as build_database leaves it."""
    path = data / "db.sqlite"
    path.write_bytes(_database(seed, size))
    path.chmod(0o644)
    data.chmod(0o755)
    return path


@functools.lru_cache(maxsize=256)
def _wanted(question: str, params: str, seed: int, size: str) -> Any:
    """The reference query's rows on the task's database (once per task)."""
    import json

    identity = {"question": question, "params": json.loads(params), "seed": seed, "size": size}
    data = make_workspace(prefix="bc-sqlref-")
    try:
        return reference_rows(_place(data, seed, size), reference_query(identity))
    finally:
        remove_workspace(data)


@functools.lru_cache(maxsize=2048)
def graded(query: str, question: str, params: str, seed: int, size: str, ordered: bool) -> float:
    want = _wanted(question, params, seed, size)
    data = make_workspace(prefix="bc-sqlgrade-")
    try:
        _place(data, seed, size)
        got = run_blocking(run_query(data, query, max_rows=MAX_ROWS, limits=LIMITS))
    finally:
        remove_workspace(data)
    if got.error or got.truncated:
        return 0.0
    return float(comparable(got.rows, ordered) == comparable(want, ordered))


class SqlQueryRewardCalculator(SandboxedReward):
    limits = LIMITS
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object", "required": ["question", "params", "seed", "size", "ordered"],
        "properties": {"question": {"enum": sorted(BY_KEY)}, "size": {"enum": sorted(SIZES)},
                       "seed": {"type": "integer"}, "params": {"type": "object"}, "ordered": {"type": "boolean"}}}

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        query = last_code_block(output_str, ("sql", "sqlite"), max_chars=16 * 1024)
        return query.strip() if query and query.strip() else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        import json

        if identity.get("question") not in BY_KEY or identity.get("size") not in SIZES:
            return 0.0
        return graded(extracted, identity["question"], json.dumps(identity["params"], sort_keys=True),
                      int(identity["seed"]), identity["size"], bool(identity["ordered"]))
