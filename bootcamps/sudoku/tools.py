"""The `check` tool: which sudoku rules a (partial) grid breaks. Calling it earns nothing."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.grids import GridCheckTool, check_tool_schema

from .grid import violations


class CheckTool(GridCheckTool):
    """Reports every broken rule of the grid against this task's givens, or that the grid is solved."""

    tool_schema: ClassVar[dict[str, Any]] = check_tool_schema(
        "check", "sudoku", "digits 1-9", '["53..7....", ...]', max_rows=32, max_length=128)
    violations = staticmethod(violations)
