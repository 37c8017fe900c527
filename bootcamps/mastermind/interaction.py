"""The code-maker's voice: black and white pegs for each guess, the end of the game when solved or out of guesses."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Interaction, assistant_texts

from .codes import guesses_in, replay, score_for


class MastermindInteraction(Interaction):
    """Replays every assistant reply so far (the verifier's rule), so its answers and the grade cannot disagree.
    The turn score is 0 until the game ends, then the game's score."""

    name = "mastermind_codemaker"

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> tuple[bool, str, float, dict[str, Any]]:
        state = self.state(instance_id)
        identity = state["identity"]
        game = replay(identity, guesses_in(assistant_texts(messages)))
        n, left = len(game.guesses), identity["budget"] - len(game.guesses)
        if game.solved_at is not None:
            score = score_for(identity, game.solved_at)
            state["turn_scores"].append(score)
            return True, f"Guess {n}: {game.guesses[-1]} is the code. Solved in {n} guesses.", score, {"guesses": n}
        if game.guesses and game.guesses[-1] is not None:
            black, white = game.marks[-1]
            said = f"Guess {n}: {game.guesses[-1]} -> {black} black, {white} white."
        else:
            letters = ", ".join(identity["colours"])
            said = (f"Guess {n}: no valid guess found (write <guess>...</guess> with {identity['pegs']} letters "
                    f"from {letters}); that turn is wasted.")
        if left <= 0:
            state["turn_scores"].append(0.0)
            return True, f"{said} No guesses left: the code was {identity['secret']}.", 0.0, {"guesses": n}
        state["turn_scores"].append(0.0)
        return False, f"{said} {left} guess{'es' if left != 1 else ''} left.", 0.0, {"guesses": n}
