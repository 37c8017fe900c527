"""The `calculate` tool: exact arithmetic through the safe evaluator. Mistakes are error texts, not crashes."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError, UnsafeExpressionError
from bc_common.safe_eval import format_number, safe_eval


class CalculatorTool(Tool):
    """Evaluates `expression` exactly. Step reward is 0: calling a tool earns nothing by itself."""

    tool_schema = {
        "type": "function",
        "function": {
            "name": "calculate",
            "description": "Evaluate an arithmetic expression exactly. Supports + - * / × ÷ ** and parentheses.",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string",
                                              "description": "The expression, e.g. (12 + 7) × 3 ÷ 4"}},
                "required": ["expression"],
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        try:
            value = safe_eval(parameters["expression"])
        except ZeroDivisionError:
            raise ToolError("division_by_zero", "division by zero in the expression") from None
        except UnsafeExpressionError as exc:
            raise ToolError("invalid_expression", str(exc)) from None
        return format_number(value, 17), 0.0, {"calls": state["calls"]}
