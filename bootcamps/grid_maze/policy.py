"""The reference policy: looks around the start (when `look` is available), then answers a shortest path found by
BFS. `wrong=True` drops the last move (the path misses G)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .maze import decode, distances


class GridMazePolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        ident = self.identity
        looked = any(m.get("role") == "tool" for m in messages)
        if ident.get("look") and "look" in self.tools and not looked:
            r, c = ident["start"]
            return {"role": "assistant", "content": "Let me look around the start.",
                    "tool_calls": [tool_call("call_0", "look", {"row": r, "col": c})]}
        path = distances(decode(ident["open"]), tuple(ident["start"]))[tuple(ident["goal"])][1]
        if wrong:
            path = path[:-1]
        return {"role": "assistant", "content": f"Path: <answer>{' '.join(path)}</answer>"}
