"""The `check_grid` tool: which binairo rules a (partial) grid breaks. Calling it earns nothing."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.grids import GridCheckTool, check_tool_schema

from .rules import violations


class CheckGridTool(GridCheckTool):
    """Reports every broken rule of the grid against this task's givens, or that the grid is solved."""

    tool_schema: ClassVar[dict[str, Any]] = check_tool_schema(
        "check_grid", "binairo", "0, 1", '["0110", "1.01", ...]', max_rows=64, max_length=256)
    violations = staticmethod(violations)
