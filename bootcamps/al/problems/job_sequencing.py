"""al/job_sequencing: jobs with durations, deadlines and profits on one machine: the most profit from jobs done on
time (any best schedule scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def on_time(jobs: list[list[int]], order: list[int]) -> bool:
    """Whether doing the jobs (numbered from 1) back to back in `order` from time 0 meets every deadline."""
    clock = 0
    for k in order:
        clock += jobs[k - 1][0]
        if clock > jobs[k - 1][1]:
            return False
    return True


def by_deadline(jobs: list[list[int]], chosen: list[int]) -> list[int]:
    return sorted(chosen, key=lambda k: (jobs[k - 1][1], k))


def best_schedule(jobs: list[list[int]]) -> tuple[int, list[int]]:
    """(most profit, the jobs by deadline): a set is feasible iff its earliest-deadline order is, so a knapsack
    over finishing times along the deadline order (best[t]: the most profit finishing exactly at t)."""
    order = by_deadline(jobs, list(range(1, len(jobs) + 1)))
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for k in order:
        length, deadline, profit = jobs[k - 1]
        for t, (value, chosen) in sorted(best.items(), reverse=True):
            end = t + length
            if end <= deadline and value + profit > best.get(end, (-1, []))[0]:
                best[end] = (value + profit, chosen + [k])
    return max(best.values(), key=lambda vc: (vc[0], -len(vc[1])))


def greedy(jobs: list[list[int]], key: Any) -> list[int]:
    """Jobs in `key` order, each kept when the kept set can still be done on time."""
    chosen: list[int] = []
    for k in sorted(range(1, len(jobs) + 1), key=key):
        if on_time(jobs, by_deadline(jobs, chosen + [k])):
            chosen.append(k)
    return by_deadline(jobs, chosen)


class JobSequencing(Problem):
    name = "job_sequencing"
    title = "Job sequencing with deadlines"
    knobs = {"jobs": Knob(9, 3, 40, "jobs"), "max_length": Knob(6, 1, 50, "durations are 1..max_length"),
             "max_profit": Knob(40, 5, 9999, "profits are 1..max_profit")}
    groups = {"easy": {"jobs": 6, "max_length": 5, "max_profit": 30}, "medium": {"jobs": 9, "max_length": 6,
                                                                                  "max_profit": 40},
              "hard": {"jobs": 14, "max_length": 8, "max_profit": 60}}
    answer_format = ("the numbers of the jobs you do, in the order you do them, separated by spaces, e.g. "
                     "<answer>c a b</answer>.")
    baselines = {"by_profit": "the most profitable jobs first, each kept when the kept ones still fit",
                 "by_deadline": "the earliest deadlines first, each kept when the kept ones still fit"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        total = 0
        jobs = []
        for _ in range(p.jobs):
            length = rng.randint(1, p.max_length)
            total += length
            jobs.append([length, 0, rng.randint(1, p.max_profit)])
        for job in jobs:  # deadlines so that about half the work fits
            job[1] = rng.randint(job[0], max(job[0], total * 3 // 5))
        best, chosen = best_schedule(jobs)
        inst = {"jobs": jobs, "optimum": best, "solution": chosen}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"job {k}: takes {length}, due by time {deadline}, pays {profit}"
                         for k, (length, deadline, profit) in enumerate(inst["jobs"], 1))
        return (f"One machine does one job at a time, starting at time 0, each job without a break:\n{rows}\n\nA job "
                "pays only when it is finished by its due time; jobs not done pay nothing. Choose the jobs and their "
                "order to be paid as much as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        jobs = inst["jobs"]
        if len(set(answer)) != len(answer) or not set(answer) <= set(range(1, len(jobs) + 1)):
            return f"job numbers must be distinct, 1..{len(jobs)}"
        if not on_time(jobs, answer):
            return "in that order a job finishes after its due time"
        total = sum(jobs[k - 1][2] for k in answer)
        return None if total == inst["optimum"] else f"pays {total}; the most is {inst['optimum']}"

    def baseline_by_profit(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        jobs = inst["jobs"]
        return greedy(jobs, lambda k: (-jobs[k - 1][2], k))

    def baseline_by_deadline(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        jobs = inst["jobs"]
        return greedy(jobs, lambda k: (jobs[k - 1][1], k))
