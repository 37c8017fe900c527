"""al/bipartite_matching: a maximum matching of a bipartite graph (any maximum matching scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, pairs


def maximum_matching(n: int, adjacency: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Kuhn's augmenting paths: a maximum matching as (left, right) pairs, sorted."""
    owner: dict[int, int] = {}  # right -> left

    def augment(u: int, seen: set[int]) -> bool:
        for v in adjacency.get(u, []):
            if v not in seen:
                seen.add(v)
                if v not in owner or augment(owner[v], seen):
                    owner[v] = u
                    return True
        return False

    for u in range(1, n + 1):
        augment(u, set())
    return sorted((u, v) for v, u in owner.items())


def first_fit(n: int, adjacency: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Each left vertex in turn takes its first listed right vertex still free."""
    used, out = set(), []
    for u in range(1, n + 1):
        free = [v for v in adjacency.get(u, []) if v not in used]
        if free:
            used.add(free[0])
            out.append((u, free[0]))
    return out


class BipartiteMatching(Problem):
    name = "bipartite_matching"
    title = "Maximum bipartite matching"
    knobs = {"size": Knob(9, 3, 40, "applicants and jobs on each side"),
             "degree": Knob(2, 1, 6, "jobs each applicant can do (at most)")}
    groups = {"easy": {"size": 6, "degree": 2}, "medium": {"size": 10, "degree": 2},
              "hard": {"size": 15, "degree": 3}}
    answer_format = ("the pairs `applicant-job` of your matching, separated by commas, e.g. "
                     "<answer>a-x, b-y</answer> (applicant a does job x).")
    baselines = {"first_fit": "applicants in order, each taking its first listed job still free",
                 "first_choice": "every applicant paired with its first listed job"}

    def validate(self, p: Any) -> None:
        if p.degree > p.size:
            raise ValueError("degree must be at most size")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        adjacency = {u: sorted(rng.sample(range(1, p.size + 1), rng.randint(1, p.degree)))
                     for u in range(1, p.size + 1)}
        for u in adjacency:
            rng.shuffle(adjacency[u])
        best = maximum_matching(p.size, adjacency)
        if len(first_fit(p.size, adjacency)) >= len(best) or len(best) < 3:
            return None
        return {"size": p.size, "can_do": [adjacency[u] for u in range(1, p.size + 1)], "optimum": len(best),
                "solution": [list(e) for e in best]}

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"applicant {u}: jobs {', '.join(map(str, jobs))}"
                         for u, jobs in enumerate(inst["can_do"], start=1))
        return (f"{inst['size']} applicants and {inst['size']} jobs (both numbered from 1). Each applicant can do "
                f"only the jobs listed:\n{rows}\n\nAssign as many applicants as possible to jobs they can do, at "
                "most one job per applicant and one applicant per job.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}" for u, v in answer)

    def read(self, body: str) -> list[tuple[int, int]] | None:
        return pairs(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int]]) -> str | None:
        can_do = inst["can_do"]
        for u, v in answer:
            if not 1 <= u <= len(can_do) or v not in can_do[u - 1]:
                return f"applicant {u} cannot do job {v}"
        if len({u for u, _ in answer}) < len(answer) or len({v for _, v in answer}) < len(answer):
            return "an applicant or a job is used twice"
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} pairs; a maximum matching has {inst['optimum']}"
        return None

    def baseline_first_fit(self, inst: dict[str, Any], rng: random.Random) -> list[tuple[int, int]]:
        return first_fit(inst["size"], dict(enumerate(inst["can_do"], start=1)))

    def baseline_first_choice(self, inst: dict[str, Any], rng: random.Random) -> list[tuple[int, int]]:
        return [(u, jobs[0]) for u, jobs in enumerate(inst["can_do"], start=1)]
