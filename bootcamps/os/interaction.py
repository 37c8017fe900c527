"""The game's voice: every reply replays the model's moves so far (the verifier's rule), plays the defender's
answer, and shows the board, or ends the game."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Interaction, InteractionReply, assistant_texts

from .play import replay, view


class OSInteraction(Interaction):
    """Terminates when the game is won, lost, or the model's moves are spent; the turn score is 0 until then."""

    name = "openspiel"

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> InteractionReply:
        state = self.state(instance_id)
        played = replay(state["identity"], assistant_texts(messages))
        news = " ".join(played.news)
        if played.over:
            score = 1.0 if played.won else 0.0
            state["turn_scores"].append(score)
            why = (played.illegal or ("you won." if played.won else
                   "the game is over and you did not win." if played.state.is_terminal() else
                   "your moves are spent and the game is not won."))
            return InteractionReply(True, f"{news} Game over: {why}".strip(), score,
                                    {"won": played.won, "moves": played.made})
        state["turn_scores"].append(0.0)
        return InteractionReply(False, f"{news}\n\n{view(played)}".strip(), 0.0, {"moves": played.made})
