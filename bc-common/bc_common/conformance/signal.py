"""Signal checks: the reward separates better behaviour from worse, and the groups order difficulty (issue 23).

The reference, `builtin:noisy` and every declared baseline play `signal_n` seeded tasks of each offered group
(groups with a share of the default mix, easiest first, as the manifest lists them) through the rollout loop
`bc-eval` runs; every limit lives in `thresholds.THRESHOLDS`. Manifest keys (`Bootcamp.conformance`):
`signal_n` (tasks per group and policy), `distinct_n` (rows per group for distinctness), `space_size`
({group: how many distinct tasks it can hold}), `prompt_space` ({group: how many distinct prompts it can show}: a
hidden-information game whose prompt states only the rules declares 1), `actions` (k, for a decision among k actions) with `label`
(identity -> the best action), `effort` (trajectory -> float; default assistant turns + tool calls) and
`hidden_state_tools` ({tool: {"budget": calls, "baseline": the declared baseline that spends them blindly}}).
"""
from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from ..builtin_model import BuiltinModel
from ..environment import Environments
from ..images import count_images
from ..manifest import Bootcamp, Group
from ..rollout import run_trajectory
from ..tasks import TaskSet
from . import stats
from .thresholds import THRESHOLDS, ConformanceError, Thresholds

SIGNAL_CHECKS = ("baselines_declared", "baselines_score_low", "labels_balanced", "noisy_below_reference",
                 "difficulty_order", "distinct_per_group", "visual_blind_baseline", "hidden_state_budget")
REFERENCE, NOISY = "builtin:reference", "builtin:noisy"
CONCURRENCY = 32


def default_effort(trajectory: dict[str, Any]) -> float:
    """The reference's effort on a task: its assistant turns plus its tool calls."""
    turns = trajectory.get("num_turns") or {}
    return float(turns.get("assistant", 0) + turns.get("tool_calls", 0))


def _success(trajectory: dict[str, Any]) -> bool:
    return float(trajectory.get("score") or 0.0) >= 1.0


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


class Signal:
    """The signal checks of one bootcamp; trajectories are played on first use and shared by every check."""

    def __init__(self, bootcamp: Bootcamp, *, seed: int = 11, thresholds: Thresholds = THRESHOLDS,
                 sample_sizes: dict[str, int] | None = None):
        self.bootcamp = bootcamp
        self.seed = seed
        self.t = thresholds
        # `sample_sizes` (signal_n, distinct_n) apply where the manifest states none: a test run's budget
        self.settings: dict[str, Any] = {**(sample_sizes or {}), **(getattr(bootcamp, "conformance", None) or {})}
        env_n = os.environ.get("BC_SIGNAL_N")
        self.n = max(int(env_n or self.settings.get("signal_n", thresholds.signal_n)), thresholds.min_signal_n)
        self.distinct_n = int(os.environ.get("BC_DISTINCT_N") or self.settings.get("distinct_n",
                                                                                   thresholds.distinct_n))
        offered = [g for g in bootcamp.group_list() if g.ratio > 0]
        self.groups: list[Group] = offered or bootcamp.group_list()
        self._rows: dict[str, list[dict[str, Any]]] = {}
        self._runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self._envs = Environments(bootcamps=[bootcamp])

    @property
    def name(self) -> str:
        return self.bootcamp.name

    def _fail(self, check: str, problems: list[str] | str) -> ConformanceError:
        text = problems if isinstance(problems, str) else "; ".join(problems)
        return ConformanceError(f"{self.name}: {check}: {text}")

    # -- samples -----------------------------------------------------------------------------------------------
    def rows(self, group: str) -> list[dict[str, Any]]:
        """The `n` seeded tasks of `group` the policies play."""
        if group not in self._rows:
            self._rows[group] = list(self.each_row(group, self.n))
        return self._rows[group]

    def each_row(self, group: str, count: int) -> Iterator[dict[str, Any]]:
        """The first `count` seeded tasks of `group`, the kept ones first: distinctness counts over the rows the
        policies play and more, so a slow generator makes each row once (the rest are not kept in memory)."""
        made = self._rows.get(group, [])
        yield from made[:count]
        tasks = TaskSet(self.bootcamp, seed=self.seed, split="signal", groups=[group])
        for i in range(len(made), count):
            yield tasks[i]

    def model_for(self, model: str) -> BuiltinModel:
        if model == NOISY:
            return BuiltinModel(model, {"error_rate": self.t.noisy_error_rate})
        return BuiltinModel(model)

    def runs(self, model: str) -> dict[str, list[dict[str, Any]]]:
        """`model`'s trajectories by group: `builtin:reference`, `builtin:noisy` or `builtin:baseline/NAME`."""
        if model not in self._runs:
            env = self._envs.get(self.bootcamp.data_source)
            player = self.model_for(model)
            jobs = [(g.name, row) for g in self.groups for row in self.rows(g.name)]

            async def play_all() -> list[dict[str, Any]]:
                gate = asyncio.Semaphore(CONCURRENCY)

                async def one(row: dict[str, Any]) -> dict[str, Any]:
                    async with gate:
                        return await run_trajectory(row, 0, player, env, model_name=model)

                return list(await asyncio.gather(*(one(row) for _, row in jobs)))

            played = asyncio.run(play_all())
            by_group: dict[str, list[dict[str, Any]]] = {g.name: [] for g in self.groups}
            for (group, _), trajectory in zip(jobs, played, strict=True):
                by_group[group].append(trajectory)
            self._runs[model] = by_group
        return self._runs[model]

    def baseline_models(self) -> list[str]:
        return [f"builtin:baseline/{b.name}" for b in self.bootcamp.baselines]

    # -- checks ------------------------------------------------------------------------------------------------
    def baselines_declared(self) -> None:
        """The manifest declares at least two baselines (the cheap strategies a model would find first)."""
        names = [b.name for b in self.bootcamp.baselines]
        if len(names) < self.t.min_baselines:
            raise self._fail("baselines_declared", f"{len(names)} baselines declared ({', '.join(names) or 'none'}); "
                                                   f"at least {self.t.min_baselines} are required")

    def baselines_score_low(self) -> None:
        """Every declared baseline, in every group: mean reward <= 0.25 and success <= 5% (a decision among k
        actions: success <= 1/k + 5%, and mean <= the larger of 0.25 and that)."""
        success_limit, mean_limit = self.t.baseline_success, self.t.baseline_mean
        k = self.settings.get("actions")
        if k:
            success_limit = 1 / int(k) + self.t.decision_success_margin
            mean_limit = max(mean_limit, success_limit)
        problems = []
        for model in self.baseline_models():
            for group, trajectories in self.runs(model).items():
                scores = [float(t.get("score") or 0.0) for t in trajectories]
                mean, success = stats.mean(scores), stats.mean([float(_success(t)) for t in trajectories])
                if mean > mean_limit or success > success_limit:
                    problems.append(f"group {group}: {model}: mean reward {mean:.3f} (limit {mean_limit:.2f}), "
                                    f"success {_pct(success)} (limit {_pct(success_limit)}), n={len(scores)}")
        if problems:
            raise self._fail("baselines_score_low", problems)

    def labels_balanced(self) -> None:
        """For a decision among k actions (`actions`), no action is the best one in more than 1/k + 10% of a
        group's tasks (`label(identity)` names the best action)."""
        k = self.settings.get("actions")
        if not k:
            return
        label = self.settings.get("label")
        if not callable(label):
            raise self._fail("labels_balanced", f"actions={k} is declared without a label(identity) function")
        limit = 1 / int(k) + self.t.label_margin
        problems = []
        for g in self.groups:
            labels = Counter(str(label(r["reward_model"]["ground_truth"])) for r in self.rows(g.name))
            best, count = labels.most_common(1)[0]
            share = count / sum(labels.values())
            if share > limit:
                problems.append(f"group {g.name}: {best!r} is the best action in {_pct(share)} of "
                                f"{sum(labels.values())} tasks (limit {_pct(limit)} for k={k})")
        if problems:
            raise self._fail("labels_balanced", problems)

    def noisy_below_reference(self) -> None:
        """`builtin:noisy` (error rate 0.3) scores at least 0.1 mean reward below the reference."""
        ref = [float(t.get("score") or 0.0) for ts in self.runs(REFERENCE).values() for t in ts]
        noisy = [float(t.get("score") or 0.0) for ts in self.runs(NOISY).values() for t in ts]
        gap = round(stats.mean(ref) - stats.mean(noisy), 12)  # in floats 1.0 - 0.9 is 0.0999...98: an exact 0.1 meets 0.1
        if gap < self.t.noisy_gap:
            raise self._fail("noisy_below_reference",
                             f"reference {stats.mean(ref):.3f}, noisy {stats.mean(noisy):.3f}: gap {gap:.3f} < "
                             f"{self.t.noisy_gap} (n={len(ref)})")

    def difficulty_order(self) -> None:
        """From a group to the next harder one (manifest order), a weak policy's (noisy's, each baseline's) success
        does not rise, nor the reference's effort fall, by more than `order_z` standard errors."""
        if len(self.groups) < 2:
            return
        z = self.t.order_z
        problems = []
        for model in [NOISY, *self.baseline_models()]:
            runs = self.runs(model)
            for easier, harder in zip(self.groups, self.groups[1:], strict=False):
                a, b = runs[easier.name], runs[harder.name]
                sa, sb = sum(map(_success, a)), sum(map(_success, b))
                rise = sb / len(b) - sa / len(a)
                se = stats.proportion_rise_se(sa, len(a), sb, len(b))
                if rise > 0 and rise > z * se:
                    problems.append(f"{model} success rises from {easier.name} {_pct(sa / len(a))} to "
                                    f"{harder.name} {_pct(sb / len(b))} (+{rise:.3f} > {z} SE = {z * se:.3f})")
        effort: Callable[[dict[str, Any]], float] = self.settings.get("effort") or default_effort
        ref = self.runs(REFERENCE)
        for easier, harder in zip(self.groups, self.groups[1:], strict=False):
            a, b = [effort(t) for t in ref[easier.name]], [effort(t) for t in ref[harder.name]]
            fall = stats.mean(a) - stats.mean(b)
            se = stats.mean_difference_se(a, b)
            if fall > 0 and fall > z * se:
                problems.append(f"the reference's effort falls from {easier.name} {stats.mean(a):.2f} to "
                                f"{harder.name} {stats.mean(b):.2f} (-{fall:.3f} > {z} SE = {z * se:.3f})")
        if problems:
            raise self._fail("difficulty_order", problems)

    def distinct_per_group(self) -> None:
        """At `distinct_n` rows per group (1000): <= 1% duplicate identities and <= 5% identical prompts, unless
        the manifest's `space_size` S for the group explains the repeats (as many as n uniform draws from S give)."""
        n = self.distinct_n
        spaces = self.settings.get("space_size") or {}
        prompt_spaces = self.settings.get("prompt_space") or {}
        problems = []
        for g in self.groups:
            identities, prompts = set(), set()
            self.rows(g.name)
            for row in self.each_row(g.name, n):
                identities.add(orjson.dumps(row["reward_model"]["ground_truth"], option=orjson.OPT_SORT_KEYS))
                prompts.add(orjson.dumps(row["prompt"], option=orjson.OPT_SORT_KEYS))
            # the prompts' space is the tasks' unless declared apart (a hidden secret behind one rules prompt)
            prompt_space = prompt_spaces.get(g.name, spaces.get(g.name))
            for what, distinct, share, space, key in (
                    ("duplicate identities", len(identities), self.t.duplicate_identities, spaces.get(g.name),
                     "space_size"),
                    ("identical prompts", len(prompts), self.t.identical_prompts, prompt_space, "prompt_space")):
                explained = stats.explained_repeats(int(space), n, self.t.space_sd) if space else 0
                repeats = n - distinct
                allowed = max(stats.allowed_repeats(share, n, self.t.distinct_n), explained)
                if space and distinct > int(space):
                    problems.append(f"group {g.name}: {distinct} {what.split()[-1]} seen in {n} rows, more than "
                                    f"the declared {key} {space}")
                elif repeats > allowed:
                    why = (f"; a space of {space} explains at most {explained}" if space
                           else f"; declare conformance['{key}'] if the group is that small")
                    problems.append(f"group {g.name}: {_pct(repeats / n)} {what} ({repeats} of {n}; allowed "
                                    f"{allowed}){why}")
        if problems:
            raise self._fail("distinct_per_group", problems)

    def visual_blind_baseline(self) -> None:
        """A bootcamp whose prompts carry pictures declares a baseline that never looks at them (`blind=True`)."""
        visual = any(count_images(r["prompt"]) for g in self.groups for r in self.rows(g.name)[:5])
        if visual and not any(getattr(b, "blind", False) for b in self.bootcamp.baselines):
            raise self._fail("visual_blind_baseline", "the prompts carry images but no declared baseline is blind "
                                                      "(Baseline(..., blind=True): plays without the picture)")

    def hidden_state_budget(self) -> None:
        """Each declared hidden-state tool has a budget the tool enforces (no trajectory gets more answers), and a
        declared baseline spends that budget blindly (reaching it on some task)."""
        declared = self.settings.get("hidden_state_tools") or {}
        tools = {s.name for s in self.bootcamp.tool_specs()}
        baselines = {b.name for b in self.bootcamp.baselines}
        problems = []
        for tool, spec in declared.items():
            budget = spec.get("budget") if isinstance(spec, dict) else None
            spender = spec.get("baseline") if isinstance(spec, dict) else None
            if tool not in tools:
                problems.append(f"{tool!r} is not one of the tools {sorted(tools)}")
            elif not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
                problems.append(f"{tool}: budget must be a positive integer, got {budget!r}")
            elif spender not in baselines:
                problems.append(f"{tool}: its blind spender {spender!r} is not a declared baseline")
            else:
                problems += self._budget_kept(tool, budget, f"builtin:baseline/{spender}")
        if problems:
            raise self._fail("hidden_state_budget", problems)

    def _budget_kept(self, tool: str, budget: int, spender: str) -> list[str]:
        most = 0
        for model in [REFERENCE, NOISY, *self.baseline_models()]:
            for group, trajectories in self.runs(model).items():
                for t in trajectories:
                    answered = sum(1 for turn in t["turns"] if turn.get("type") == "tool"
                                   and turn.get("name") == tool and turn.get("error") is None)
                    if answered > budget:
                        return [f"group {group}: {model}: {tool} answered {answered} calls > budget {budget} "
                                f"({t['task_id']})"]
                    if model == spender:
                        most = max(most, answered)
        if most < budget:
            return [f"{spender} never spends the {tool} budget ({most} of {budget} calls at most)"]
        return []
