"""sql_query tasks: a shop database (from a seed) and a question whose answer is a non-trivial result set."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.sql_runner import comparable

from .database import SCHEMA, SIZES, database_script, first_rows, memory_database
from .questions import BY_KEY, LEVELS

# answers a lazy policy gives without reading the question: a task where one of them is right is redrawn
LAZY_QUERIES = ("SELECT name FROM customers", "SELECT COUNT(*) FROM orders", "SELECT name FROM products",
                "SELECT * FROM customers")

PROMPT = """A shop's SQLite database has these tables:

{schema}

Its first rows:
{rows}

Question: {question}

Use the `sql` tool to look at the data (read-only). Then answer with one SQL query (SELECT or WITH) in a ```sql \
block. Your query is run on the database and its result compared with the right one: the rows must match \
(in any order, unless the question asks for an order); column names do not matter."""


@dataclass
class SqlQueryConfig:
    level: str = "easy"  # which questions: easy (one table), medium (joins, grouping), hard (ranking, subqueries)
    size: str = "small"  # database size: small, medium, large

    def validate(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}")


def reference_query(identity: dict[str, Any]) -> str:
    return BY_KEY[identity["question"]].sql.format(**identity["params"])


class SqlQueryInstructionGenerator(InstructionGenerator):
    """Identity: {question, params, seed (of the database), size, ordered}."""

    Config = SqlQueryConfig
    name = "sql_query"

    def case_generator(self) -> dict[str, Any]:
        for _ in range(100):
            question = self.rng.choice(LEVELS[self.level])
            seed = self.rng.getrandbits(62)
            con = memory_database(database_script(seed, self.size))
            lazy = {tuple(comparable(con.execute(q).fetchall(), False)) for q in LAZY_QUERIES}
            answers: dict[Any, list[dict[str, Any]]] = {}  # answer -> the parameters that give it
            trivial = set()
            for params in question.space():
                rows = con.execute(question.sql.format(**params)).fetchall()
                key = tuple(comparable(rows, question.ordered))
                answers.setdefault(key, []).append(params)
                if not rows or tuple(comparable(rows, False)) in lazy or (len(rows) == 1 and rows[0][0] in (0, 1)):
                    trivial.add(key)
            # parameters whose answer no other parameters of the template give on this database
            unique = [found[0] for key, found in answers.items() if len(found) == 1 and key not in trivial]
            if unique:
                params = self.rng.choice(unique)
                return {"question": question.key, "params": params, "seed": seed, "size": self.size,
                        "ordered": question.ordered}
        raise RuntimeError("no question with a non-trivial answer in 100 draws")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        question = BY_KEY[identity["question"]]
        rows = first_rows(memory_database(database_script(int(identity["seed"]), identity["size"])))
        return PROMPT.format(schema=SCHEMA, rows=rows, question=question.text.format(**identity["params"]))
