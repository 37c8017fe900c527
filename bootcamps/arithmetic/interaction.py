"""Feedback after each tool-free answer: wrong answers get a retry until correct or out of attempts."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Interaction, final_assistant_text

from .reward import ArithmeticRewardCalculator


class ArithmeticInteraction(Interaction):
    """Scores the latest assistant answer; terminates on a correct one or after `max_attempts` answers."""

    name = "arithmetic_feedback"
    default_config = {"max_attempts": 3}

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> tuple[bool, str, float, dict[str, Any]]:
        state = self.state(instance_id)
        text = final_assistant_text(messages)
        score = ArithmeticRewardCalculator.verify_score(text, state["identity"])
        state["turn_scores"].append(score)
        attempts = len(state["turn_scores"])
        if score >= 1.0:
            return True, "Correct.", score, {"attempts": attempts}
        if attempts >= int(self.config.get("max_attempts", 3)):
            return True, "Incorrect, and no attempts are left.", score, {"attempts": attempts}
        if ArithmeticRewardCalculator.extract_output(text) is None:
            reply = ("I could not find a result. End your reply with\n```json\n{\"result\": <number>}\n```")
        else:
            reply = "Your result is incorrect. Please recheck the calculation and answer again."
        return False, reply, score, {"attempts": attempts}
