"""al/assignment: workers to jobs, one each, at the least total cost (any optimal assignment scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def cheapest_assignment(cost: list[list[int]]) -> tuple[int, list[int]]:
    """(least total cost, job of each worker, 1-based): dynamic programming over the sets of jobs taken."""
    n = len(cost)
    best = {0: (0, [])}
    for worker in range(n):
        nxt: dict[int, tuple[int, list[int]]] = {}
        for taken, (total, jobs) in best.items():
            for job in range(n):
                if not taken >> job & 1:
                    key, value = taken | 1 << job, total + cost[worker][job]
                    if key not in nxt or value < nxt[key][0]:
                        nxt[key] = (value, jobs + [job + 1])
        best = nxt
    return best[(1 << n) - 1]


def by_rows(cost: list[list[int]]) -> list[int]:
    """Each worker in turn takes its cheapest job still free."""
    free, out = set(range(len(cost))), []
    for row in cost:
        job = min(free, key=lambda j: (row[j], j))
        free.discard(job)
        out.append(job + 1)
    return out


def by_cells(cost: list[list[int]]) -> list[int]:
    """The cheapest (worker, job) pair of the whole table first, while both are free."""
    n, out = len(cost), [0] * len(cost)
    jobs_free = set(range(n))
    for _, w, j in sorted((cost[w][j], w, j) for w in range(n) for j in range(n)):
        if not out[w] and j in jobs_free:
            out[w] = j + 1
            jobs_free.discard(j)
    return out


def total(cost: list[list[int]], jobs: list[int]) -> int:
    return sum(cost[w][j - 1] for w, j in enumerate(jobs))


class Assignment(Problem):
    name = "assignment"
    title = "Minimum-cost assignment (Hungarian problem)"
    knobs = {"size": Knob(6, 3, 10, "workers and jobs"), "max_cost": Knob(99, 9, 999, "costs are 1..max_cost")}
    groups = {"easy": {"size": 5, "max_cost": 30}, "medium": {"size": 7, "max_cost": 60},
              "hard": {"size": 9, "max_cost": 99}}
    answer_format = ("the job of each worker, worker 1 first, separated by spaces, e.g. <answer>c a b</answer> "
                     "(worker 1 does job c, worker 2 job a, ...).")
    baselines = {"row_greedy": "each worker in turn takes its cheapest free job",
                 "cell_greedy": "the cheapest worker-job pair of the table first, while both are free",
                 "diagonal": "worker i does job i"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        cost = [[rng.randint(1, p.max_cost) for _ in range(p.size)] for _ in range(p.size)]
        best, jobs = cheapest_assignment(cost)
        lazy = (by_rows(cost), by_cells(cost), list(range(1, p.size + 1)))
        if any(total(cost, answer) <= best for answer in lazy):
            return None
        return {"cost": cost, "optimum": best, "solution": jobs}

    def statement(self, inst: dict[str, Any]) -> str:
        n = len(inst["cost"])
        head = " " * 9 + "".join(f"{'job ' + str(j):>7}" for j in range(1, n + 1))
        rows = "\n".join(f"worker {w:<2}" + "".join(f"{c:>7}" for c in row) for w, row in enumerate(inst["cost"], start=1))
        return (f"The cost of each worker doing each job:\n{head}\n{rows}\n\nGive each of the {n} workers a "
                "different job so that the total cost is as small as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = len(inst["cost"])
        if sorted(answer) != list(range(1, n + 1)):
            return f"not one different job (1..{n}) for each of the {n} workers"
        if total(inst["cost"], answer) != inst["optimum"]:
            return f"total cost {total(inst['cost'], answer)}; the least is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        i, j = rng.sample(range(len(wrong)), 2)
        wrong[i], wrong[j] = wrong[j], wrong[i]
        return wrong

    def baseline_row_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return by_rows(inst["cost"])

    def baseline_cell_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return by_cells(inst["cost"])

    def baseline_diagonal(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, len(inst["cost"]) + 1))
