"""The shop database of a task: customers, products and orders, drawn from the task's seed (same seed, same
bytes), as an SQL script the tool and the verifier both build."""
from __future__ import annotations

import random
import sqlite3

CITIES = ["Lyon", "Porto", "Graz", "Turku", "Cork", "Brno", "Split", "Ghent"]
CATEGORIES = ["books", "games", "garden", "kitchen", "music", "sports"]
FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Max", "Noor", "Oli",
         "Pia", "Raf", "Sol", "Tom", "Uma", "Vik", "Wen", "Yara", "Zed"]
SIZES = {"small": (8, 6, 25), "medium": (20, 12, 80), "large": (40, 20, 200)}  # customers, products, orders

SCHEMA = """CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
                     product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL,
                     day INTEGER NOT NULL);"""


def database_script(seed: int, size: str) -> str:
    """The SQL that creates and fills the database of (seed, size)."""
    rng = random.Random(seed)
    customers, products, orders = SIZES[size]
    names = rng.sample([f"{f} {chr(65 + k)}." for f in FIRST for k in range(6)], customers)
    lines = [SCHEMA]
    for i, name in enumerate(names, 1):
        lines.append(f"INSERT INTO customers VALUES ({i}, '{name}', '{rng.choice(CITIES)}');")
    for i in range(1, products + 1):
        lines.append(f"INSERT INTO products VALUES ({i}, 'P{i:03d}', '{rng.choice(CATEGORIES)}', "
                     f"{rng.randint(2, 120)});")
    buyers = rng.sample(range(1, customers + 1), max(2, customers * 3 // 4))  # some customers never order
    for i in range(1, orders + 1):
        lines.append(f"INSERT INTO orders VALUES ({i}, {rng.choice(buyers)}, {rng.randint(1, products)}, "
                     f"{rng.randint(1, 9)}, {rng.randint(1, 60)});")
    return "\n".join(lines)


def memory_database(script: str) -> sqlite3.Connection:
    """The database in memory (the generator's and the verifier's own, trusted queries)."""
    con = sqlite3.connect(":memory:")
    con.executescript(script)
    return con


def first_rows(con: sqlite3.Connection, count: int = 3) -> str:
    """The first `count` rows of each table, one line a table (what the prompt shows of the data)."""
    lines = []
    for table in ("customers", "products", "orders"):
        rows = con.execute(f"SELECT * FROM {table} ORDER BY id LIMIT {count}").fetchall()
        lines.append(f"{table}: " + ", ".join(repr(tuple(row)) for row in rows) + ", ...")
    return "\n".join(lines)
