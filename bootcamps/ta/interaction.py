"""The game's voice: every reply replays the model's moves so far (the verifier's rule), plays the scripted
seat's answer in a two-player game, and tells the model what happened since its move."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Interaction, InteractionReply, assistant_texts

from .games import GAMES
from .play import replay


class TAInteraction(Interaction):
    """Terminates when TextArena says the game is over; the turn score is 0 until then, then the grade."""

    name = "textarena"

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> InteractionReply:
        state = self.state(instance_id)
        identity = state["identity"]
        game = GAMES[identity["game"]]
        played = replay(identity, assistant_texts(messages), game.opponent)
        news = played.views[-1] if played.views else ""
        if played.over:
            outcome = played.outcome()
            score = 1.0 if outcome.result == "win" else 0.0
            state["turn_scores"].append(score)
            end = f"Game over: you {'won' if score else 'did not win'}. {outcome.reason}".strip()
            return InteractionReply(True, f"{news}\n\n{end}".strip(), score,
                                    {"result": outcome.result, "textarena_reward": outcome.reward})
        state["turn_scores"].append(0.0)
        return InteractionReply(False, news or "Your move.", 0.0, {"moves": played.match.moves})
