"""The reference player: at every decision asks `equity` for its equity against villain's range and against the
calling share of each bet size, evaluates every legal action with the EV model and plays the best, stating its EV
and its equity."""
from __future__ import annotations

from typing import Any

import orjson

from bc_common.bootcamp import ReferencePolicy, assistant_texts, tool_call

from .actions import menu
from .credit import legal_values
from .ev import Spot, action_evs, defend_share
from .hand import range_equity, replay
from .reward import move_in


def evs_from_tool(spot: Spot, body: dict[str, Any]) -> dict[str, Any]:
    """The EV of each legal action from an `equity` tool answer that lists the calling share of each bet size."""
    equity = body["equity"]
    by_share = {round(s["share"], 4): (s["probability"], s["equity"]) for s in body.get("shares", [])}
    out: dict[str, Any] = {}
    if spot.to_call == 0:
        out["check"] = equity * spot.pot
    else:
        out["fold"] = 0.0
        paid = min(spot.to_call, spot.hero_stack)
        out["call"] = equity * (spot.pot - (spot.to_call - paid) + paid) - paid
    raises = {}
    for to in menu(spot):
        x, r, d = defend_share(spot, to)
        q, eq = by_share[d]
        raises[to] = (1 - q) * spot.pot + q * (eq * (spot.pot + x + r) - x)
    if raises:
        out["raise"] = raises
    return out


def choose(evs: dict[str, Any], worst: bool = False) -> tuple[str, float]:
    """(action text, its EV): the best action, or with `worst` the worst one."""
    options = [(k, v) for k, v in evs.items() if k != "raise"]
    options += [(f"raise {to}", v) for to, v in (evs.get("raise") or {}).items()]
    return (min if worst else max)(options, key=lambda kv: kv[1])


def table_text(values: dict[str, float]) -> str:
    """An `<evs>` tag stating the given EVs ({key: EV})."""
    return "<evs>" + orjson.dumps({k: round(v, 4) for k, v in values.items()}).decode() + "</evs>"


def answer(evs: dict[str, Any], equity: float, worst: bool, tolerance: float, spot: Spot) -> dict[str, Any]:
    action, value = choose(evs, worst)
    if worst and value >= choose(evs)[1] - tolerance:  # every action is about as good: play an illegal size
        action = f"raise {(spot.max_raise_to or spot.pot + spot.to_call) + 1}"
    return {"role": "assistant", "content": f"Best by EV: {action}.\n<action>{action}</action>\n"
                                            f"{table_text(legal_values(evs))}\n<equity>{equity:.6f}</equity>"}


def latest_tool_body(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The latest `equity` answer since the last user message, or None."""
    for msg in reversed(messages):
        if msg.get("role") == "user":
            return None
        if msg.get("role") == "tool":
            try:
                body = orjson.loads(msg.get("content") or "")
            except orjson.JSONDecodeError:
                continue
            if isinstance(body, dict) and "equity" in body:
                return body
    return None


class HoldemPolicy(ReferencePolicy):
    """EV-maximising play; `wrong=True` plays the lowest-EV legal action instead."""

    def _ask(self, hand: str, board: str, expression: str, spot: Spot) -> dict[str, Any]:
        shares = sorted({defend_share(spot, to)[2] for to in menu(spot)})
        calls = [tool_call("call_equity", "equity", {"hand": hand, "board": board, "range": expression,
                                                      "shares": shares})]
        if spot.to_call and "pot_odds" in self.tools:
            calls.append(tool_call("call_odds", "pot_odds", {"pot": spot.pot, "to_call": spot.to_call}))
        return {"role": "assistant", "content": "Let me get my equity against villain's range.", "tool_calls": calls}

    def _decision(self, messages: list[dict[str, Any]]) -> tuple[Spot, str, str, str, float] | dict[str, Any]:
        """(spot, hero's cards, board, villain's range expression, tolerance) of the decision to make, or the
        closing message when the hand is over."""
        identity = self.identity
        if identity["mode"] == "decision":
            return (Spot(**identity["spot"]), identity["hero"], identity["board"], identity["villain_range"],
                    float(identity["tolerance"]))
        log = replay(identity, [m for m in (move_in(t) for t in assistant_texts(messages)) if m is not None])
        if log.result != "awaiting":
            return {"role": "assistant", "content": f"The hand is over ({log.result})."}
        decision = log.decisions[-1]
        return (decision.spot, identity["hero"], decision.board, decision.range_expression,
                float(identity["tolerance_share"]) * decision.spot.pot)

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        found = self._decision(messages)
        if isinstance(found, dict):
            return found
        spot, hand, board, expression, tolerance = found
        body = latest_tool_body(messages)
        if body is None and "equity" in self.tools:
            return self._ask(hand, board, expression, spot)
        if body is not None:
            evs, equity = evs_from_tool(spot, body), body["equity"]
        else:  # no tools offered: the same numbers, computed in process
            rq = range_equity(hand, board, expression)
            evs, equity = action_evs(spot, rq, menu(spot)), rq.equity()
        return answer(evs, equity, wrong, tolerance, spot)
