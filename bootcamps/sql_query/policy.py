"""The reference (looks at the answer with the `sql` tool, then answers the reference query) and the baselines."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call
from bc_common.code_tools import SqlTool

from .database import database_script
from .generator import reference_query


def answer(query: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"```sql\n{query}\n```"}


class SqlQueryPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        query = reference_query(self.identity)
        if not any(m.get("role") == "tool" for m in messages) and "sql" in self.tools:
            return {"role": "assistant", "content": "Checking the result first.",
                    "tool_calls": [tool_call("call_0", "sql", {"query": query})]}
        return answer(f"SELECT * FROM ({query}) LIMIT 0" if wrong else query)


class FirstTablePolicy(ReferencePolicy):
    """Answers the names of every customer, whatever the question."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer("SELECT name FROM customers")


class CountAllPolicy(ReferencePolicy):
    """Answers the number of orders, whatever the question."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer("SELECT COUNT(*) FROM orders")


class ProductsPolicy(ReferencePolicy):
    """Answers every product's name, whatever the question."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer("SELECT name FROM products")


class ShopSqlTool(SqlTool):
    """`sql` on the task's shop database."""

    def database_script(self, identity: dict[str, Any]) -> str:
        return database_script(int(identity["seed"]), identity["size"])


BASELINES = [
    Baseline("all_customers", FirstTablePolicy, "every customer's name, whatever the question"),
    Baseline("count_orders", CountAllPolicy, "the number of orders, whatever the question"),
    Baseline("all_products", ProductsPolicy, "every product's name, whatever the question"),
]
