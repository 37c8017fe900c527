"""The reference policy: plan around the obstacles it knows (the prompt's, plus those the tools reported),
replay the plan with `simulate_path`, and answer with the first path the replay calls valid.

It reads only what a model sees: the task as the prompt states it (obstacles only when visible) and the
`tool` messages. Hidden obstacles become known only when a replay touches them.
"""
from __future__ import annotations

from typing import Any

import orjson

from bc_common.bootcamp import ReferencePolicy, tool_call, tool_reports

from .discovery import merge, plan_known, visible_obstacles

_OBSTACLE_KEYS = {"name", "shape", "pos", "size", "yaw"}


def answer_text(waypoints: list[list[float]]) -> str:
    body = orjson.dumps({"waypoints": waypoints}).decode()
    return f"This path reaches the target without collisions.\n```json\n{body}\n```"


def learned_obstacles(reports: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
    found = []
    for _name, _args, result in reports:
        for o in result.get("obstacles") or []:
            if isinstance(o, dict) and {"name", "shape", "pos", "size"} <= o.keys() <= _OBSTACLE_KEYS:
                found.append(o)
    return found


class RobotArmPolicy(ReferencePolicy):
    """Replays at most one new plan per turn; `wrong=True` answers with a path that ends back at the start."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        reports = tool_reports(messages)
        replays = [(args["waypoints"], result) for name, args, result in reports if name == "simulate_path"]
        known = merge(visible_obstacles(self.identity), learned_obstacles(reports))
        if replays and replays[-1][1].get("valid") is True and not wrong:
            return {"role": "assistant", "content": answer_text(replays[-1][0])}
        waypoints = plan_known(self.identity, known)
        if wrong:
            return {"role": "assistant", "content": answer_text((waypoints or [])[:-1] + [self.identity["start"]])}
        if waypoints is None:
            return {"role": "assistant", "content": "I could not find a collision-free path to the target."}
        if "simulate_path" in self.tools and (not replays or replays[-1][0] != waypoints):
            return {"role": "assistant", "content": "Let me replay this plan before answering.",
                    "tool_calls": [tool_call(f"call_{len(replays)}", "simulate_path", {"waypoints": waypoints})]}
        return {"role": "assistant", "content": answer_text(waypoints)}
