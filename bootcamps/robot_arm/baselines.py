"""Baselines: the cheap strategies a lazy policy finds first. They read only the prompt's task and the tools'
reports. `blind_probe` spends the whole probe budget (calls and replayed motion) on sweeps and collision checks
that do not depend on any plan, then answers a plan around what they revealed, unverified; `ignore_obstacles` answers the reach that
ignores every obstacle; `random` answers random waypoints within the joint limits."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call, tool_reports

from .discovery import PROBE_BUDGET, merge, plan_known
from .policy import answer_text, learned_obstacles


def _budget(identity: dict[str, Any]) -> int:
    return int(identity.get("probe_budget", PROBE_BUDGET))


def sweeps(identity: dict[str, Any], count: int) -> list[list[list[float]]]:
    """`count` blind sweeps from the start that share the replay budget evenly: sweep k swings joint k (mod n)
    one way (even k: up, odd k: down), as far as its share of the budget and the joint's range allow."""
    start, limits = identity["start"], identity["limits"]
    share = float(identity.get("motion_budget", 6.0)) / count
    out = []
    for k in range(count):
        j = k % len(start)
        lo, hi = limits[j]
        q = list(start)
        q[j] = min(hi, q[j] + share) if k % 2 == 0 else max(lo, q[j] - share)
        out.append([q])
    return out


def probe_points(identity: dict[str, Any], count: int) -> list[list[float]]:
    """`count` configurations spread evenly over joint_1's range, every other joint straight."""
    lo, hi = identity["limits"][0]
    n = len(identity["limits"])
    return [[lo + (hi - lo) * (k + 0.5) / count] + [0.0] * (n - 1) for k in range(count)]


class BlindProbePolicy(ReferencePolicy):
    """Baseline: spends every `simulate_path` and `check_collision` call on blind sweeps, then answers a plan
    around the obstacles those revealed without replaying it."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        reports = tool_reports(messages)
        if not any(m.get("role") == "tool" for m in messages):
            budget = _budget(self.identity)
            calls = [tool_call(f"call_sweep_{k}", "simulate_path", {"waypoints": w})
                     for k, w in enumerate(sweeps(self.identity, budget)) if "simulate_path" in self.tools]
            calls += [tool_call(f"call_check_{k}", "check_collision", {"q": q})
                      for k, q in enumerate(probe_points(self.identity, budget)) if "check_collision" in self.tools]
            if calls:
                return {"role": "assistant", "content": "Let me sweep the workspace first.", "tool_calls": calls}
        waypoints = plan_known(self.identity, merge([], learned_obstacles(reports)))
        if waypoints is None:
            return {"role": "assistant", "content": "I could not find a path."}
        return {"role": "assistant", "content": answer_text(waypoints)}


def tucked(identity: dict[str, Any], base: float) -> list[float]:
    """The arm folded out of the way with its base turned to `base`: a planar arm zig-zagged onto its first link
    (every other joint at 90% of its range, alternating sides), a spatial arm pointing straight up."""
    limits = identity["limits"]
    if identity["arm"] == "planar":
        return [base] + [round(0.9 * (limits[j][1] if j % 2 else limits[j][0]), 4) for j in range(1, len(limits))]
    return [base, round(max(-1.5708, limits[1][0]), 4), 0.0, 0.0, 0.0, identity["start"][5]]


class TuckPolicy(ReferencePolicy):
    """Baseline: a fixed detour over everything, no tools: fold the arm, turn the base, unfold onto the reach
    that ignores every obstacle."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        reach = plan_known(self.identity, [])
        if reach is None:
            return {"role": "assistant", "content": "I could not find a path."}
        goal = reach[-1]
        waypoints = [tucked(self.identity, self.identity["start"][0]), tucked(self.identity, goal[0]), goal]
        return {"role": "assistant", "content": answer_text(waypoints)}


class OneReplayPolicy(ReferencePolicy):
    """Baseline: replays the reach that ignores every obstacle once, then answers the plan around what that
    revealed without replaying it."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        reports = tool_reports(messages)
        if not reports and "simulate_path" in self.tools:
            reach = plan_known(self.identity, [])
            if reach is not None:
                return {"role": "assistant", "content": "Let me try the direct reach first.",
                        "tool_calls": [tool_call("call_reach", "simulate_path", {"waypoints": reach})]}
        waypoints = plan_known(self.identity, merge([], learned_obstacles(reports)))
        if waypoints is None:
            return {"role": "assistant", "content": "I could not find a path."}
        return {"role": "assistant", "content": answer_text(waypoints)}


class IgnoreObstaclesPolicy(ReferencePolicy):
    """Baseline: the plan that ignores every obstacle (a reach onto the target), no tools."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        waypoints = plan_known(self.identity, [])
        return {"role": "assistant", "content": answer_text(waypoints or [self.identity["start"]])}


class RandomWaypointsPolicy(ReferencePolicy):
    """Baseline: two random configurations within the joint limits."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        waypoints = [[round(self.rng.uniform(lo, hi), 4) for lo, hi in self.identity["limits"]] for _ in range(2)]
        return {"role": "assistant", "content": answer_text(waypoints)}
