"""The optional `calculate` tool: exact arithmetic with the game's operators. Calling it earns nothing, and it
answers at most `CHECKS` calls a task (enough to check an answer, too few to search with it)."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError, UnsafeExpressionError
from bc_common.safe_eval import format_number, safe_eval

from .generator import CHECKS
from .rules import MAX_LENGTH, OPERATORS


class CalculateTool(Tool):
    """Evaluates `expression` exactly (fractions stay exact: `8/3` is `8/3`, not 2.6666...)."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "calculate",
            "description": "Evaluate an arithmetic expression exactly with + - * / and parentheses; "
                           f"the result is a whole number or an exact fraction like 8/3. At most {CHECKS} calls per task.",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string", "description": "e.g. 8 / (3 - 8 / 3)"}},
                "required": ["expression"],
                "additionalProperties": False,
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        if state["calls"] > CHECKS:
            raise ToolError("budget_spent", f"this task allows {CHECKS} calculations and they are spent; "
                                            "give your answer")
        try:
            value = safe_eval(parameters["expression"], max_length=MAX_LENGTH, operators=OPERATORS)
        except ZeroDivisionError:
            raise ToolError("division_by_zero", "division by zero in the expression") from None
        except UnsafeExpressionError as exc:
            raise ToolError("invalid_expression", str(exc)) from None
        text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        if value.denominator != 1:
            text += f" (about {format_number(value, 6)})"
        return text, 0.0, {"calls": state["calls"]}
