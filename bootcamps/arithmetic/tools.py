"""The `calculate` tool: exact arithmetic through the safe evaluator. Mistakes are error texts, not crashes."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError, TooManyOperationsError, UnsafeExpressionError
from bc_common.safe_eval import format_number, safe_eval


class CalculatorTool(Tool):
    """Evaluates `expression` exactly, at most `max_operations` binary operations a call (so a longer expression
    takes the model several calls and its own plan). Step reward is 0: calling a tool earns nothing by itself."""

    default_config = {"max_operations": 2}

    tool_schema = {
        "type": "function",
        "function": {
            "name": "calculate",
            "description": "Evaluate a short arithmetic expression exactly: at most two operations per call "
                           "(+ - * / × ÷ **, parentheses and signs allowed); split longer expressions.",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string",
                                              "description": "At most two operations, e.g. (12 + 7) × 3"}},
                "required": ["expression"],
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        cap = int(self.config["max_operations"])
        try:
            value = safe_eval(parameters["expression"], max_operations=cap)  # one parse: the cap is checked on it
        except ZeroDivisionError:
            raise ToolError("division_by_zero", "division by zero in the expression") from None
        except TooManyOperationsError:
            raise ToolError("too_many_operations", f"the calculator does at most {cap} operations per call; "
                                                   "split the expression into steps") from None
        except UnsafeExpressionError as exc:
            raise ToolError("invalid_expression", str(exc)) from None
        return format_number(value, 17), 0.0, {"calls": state["calls"]}
