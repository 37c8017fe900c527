"""The table's voice in mode `hand`: replays hero's actions so far, answers with villain's moves, the next street and
the next decision, and ends the hand on a fold, a showdown, an illegal action or a reply without an action."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Interaction, assistant_texts

from .hand import replay, score, situation
from .reward import HoldemRewardCalculator, move_in


class HoldemInteraction(Interaction):
    """Stateless over the hand (every turn replays every assistant action, as the verifier does), so the table
    and the grade cannot disagree. The final turn score is the verifier's score of the hand."""

    name: ClassVar[str] = "holdem_table"
    default_config: ClassVar[dict[str, Any]] = {}

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> tuple[bool, str, float, dict[str, Any]]:
        state = self.state(instance_id)
        identity = state["identity"]
        texts = assistant_texts(messages)
        if identity.get("mode") != "hand":  # a decision spot is one answer: nothing for the table to say
            graded = HoldemRewardCalculator.verify_score(texts, identity) if texts else 0.0
            state["turn_scores"].append(graded)
            return True, "Decision recorded.", graded, {}
        if not texts or move_in(texts[-1]) is None:
            state["turn_scores"].append(0.0)
            return True, ("I could not find your action: reply with <action>...</action>, <evs>...</evs> and <equity>...</equity>. "
                          "The hand ends; it scores 0."), 0.0, {"result": "missing"}
        moves = [m for m in (move_in(t) for t in texts) if m is not None]
        log = replay(identity, moves, grade_decisions=False)
        mine = [i for i, e in enumerate(log.events) if e.startswith("You ")]
        said = " ".join(log.events[mine[-1] if mine else 0:])  # from hero's latest action on
        if log.result == "awaiting":
            state["turn_scores"].append(0.0)
            return False, f"{said}\n\n{situation(log.decisions[-1], identity)}", 0.0, {"decisions": len(moves)}
        graded = score(replay(identity, moves, grade_decisions=True)) if log.result != "illegal" else 0.0
        state["turn_scores"].append(graded)
        chips = f" You {'win' if log.hero_net > 0 else 'lose'} {abs(log.hero_net)} chips." if log.hero_net else ""
        return True, f"{said}\nThe hand is over ({log.result}).{chips}", graded, {
            "result": log.result, "hero_net": log.hero_net, "decisions": len(log.decisions)}
