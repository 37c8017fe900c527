"""Question templates: plain-language text, the reference query, and the space of per-task parameters the
generator draws from (a city, a day, a quantity, a category, a window of days)."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .database import CATEGORIES, CITIES


@dataclass(frozen=True)
class Question:
    """A template. `space()` lists every parameter set the task may draw; the generator keeps only those whose
    answer on the task's database differs from every other one's, so one task's query answers no other task of
    the template unless the parameters are the same."""

    key: str
    level: str
    text: str
    sql: str
    ordered: bool
    space: Callable[[], list[dict[str, Any]]]


def _grid(**axes: Any) -> Callable[[], list[dict[str, Any]]]:
    names = list(axes)
    return lambda: [dict(zip(names, values, strict=True)) for values in itertools.product(*axes.values())]


def _city_pairs() -> list[dict[str, Any]]:
    return [{"city": a, "city2": b, "quantity": q} for a, b in itertools.combinations(CITIES, 2) for q in range(1, 10)]


def _windows(starts: range, widths: tuple[int, ...]) -> Callable[[], list[dict[str, Any]]]:
    return lambda: [{"first": s, "last": s + w} for s in starts for w in widths]


QUESTIONS = [
    Question("city_customers", "easy",
             "List the names of the customers who live in {city} or in {city2} and placed at least one order with a "
             "quantity of at least {quantity}.",
             "SELECT name FROM customers WHERE city IN ('{city}', '{city2}') AND id IN (SELECT customer_id FROM "
             "orders WHERE quantity >= {quantity})", False, _city_pairs),
    Question("late_orders", "easy",
             "List the ids of the orders placed on day {day} or later with a quantity of at least {quantity}.",
             "SELECT id FROM orders WHERE day >= {day} AND quantity >= {quantity}", False,
             _grid(day=range(10, 51, 2), quantity=range(2, 9))),
    Question("category_orders", "easy",
             "List the ids of the orders of {category} products with a quantity of at least {quantity}.",
             "SELECT id FROM orders WHERE quantity >= {quantity} AND product_id IN (SELECT id FROM products WHERE "
             "category = '{category}')", False, _grid(category=CATEGORIES, quantity=range(1, 10))),
    Question("quantity_per_category", "medium",
             "Counting only the orders placed on day {day} or later: for each product category that was ordered in "
             "that time, give the category and the total quantity ordered.",
             "SELECT p.category, SUM(o.quantity) FROM orders o JOIN products p ON p.id = o.product_id "
             "WHERE o.day >= {day} GROUP BY p.category", False, _grid(day=range(5, 56))),
    Question("never_ordered", "medium",
             "List the names of the customers who placed no order from day {first} to day {last} (both included; "
             "those who never ordered at all included).",
             "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE day BETWEEN {first} "
             "AND {last})", False, _windows(range(1, 46, 3), (5, 10, 15))),
    Question("category_buyers", "medium",
             "List the names of the customers who ordered a {category} product with a quantity of at least "
             "{quantity} in one order (each name once).",
             "SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.id "
             "JOIN products p ON p.id = o.product_id WHERE p.category = '{category}' AND o.quantity >= {quantity}",
             False, _grid(category=CATEGORIES, quantity=range(1, 9))),
    Question("top_spenders", "hard",
             "Counting only the orders placed on day {day} or later: which {k} customers spent the most in total "
             "(quantity times price)? Give name and total spent, highest total first; break ties by name, "
             "alphabetically.",
             "SELECT c.name, SUM(o.quantity * p.price) AS spent FROM customers c JOIN orders o ON o.customer_id = "
             "c.id JOIN products p ON p.id = o.product_id WHERE o.day >= {day} GROUP BY c.id ORDER BY spent DESC, "
             "c.name LIMIT {k}", True, _grid(k=range(3, 6), day=range(1, 41, 3))),
    Question("city_revenue_rank", "hard",
             "Counting only the orders placed from day {first} to day {last} (both included): for every city with "
             "at least one such order, give the city and its revenue (quantity times price of its customers' "
             "orders), highest revenue first, ties by city name.",
             "SELECT c.city, SUM(o.quantity * p.price) AS revenue FROM customers c JOIN orders o ON o.customer_id "
             "= c.id JOIN products p ON p.id = o.product_id WHERE o.day BETWEEN {first} AND {last} GROUP BY c.city "
             "ORDER BY revenue DESC, c.city", True, _windows(range(1, 31, 4), (20, 25, 30))),
    Question("above_average_products", "hard",
             "Counting only the orders placed on day {day} or later: list the names of the products whose total "
             "ordered quantity is above the average total ordered quantity per product (counting only products "
             "ordered in that time).",
             "WITH t AS (SELECT product_id, SUM(quantity) AS q FROM orders WHERE day >= {day} GROUP BY product_id) "
             "SELECT p.name FROM products p JOIN t ON t.product_id = p.id WHERE t.q > (SELECT AVG(q) FROM t)", False,
             _grid(day=range(1, 51))),
]
BY_KEY = {q.key: q for q in QUESTIONS}
LEVELS = {level: [q for q in QUESTIONS if q.level == level] for level in ("easy", "medium", "hard")}
