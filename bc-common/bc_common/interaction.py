"""The `Interaction` base class: the environment's voice between the model's turns.

    class GuessInteraction(Interaction):
        async def generate_response(self, instance_id, messages, **kwargs):
            done = last_tagged(messages[-1]["content"], "answer") == str(self.state(instance_id)["identity"]["n"])
            return InteractionReply(terminate=done, text="" if done else "Try again.", turn_score=float(done))

Authors import it from `bc_common.bootcamp` with the rest of the contract.
"""
from __future__ import annotations

from typing import Any, ClassVar

from .seeding import new_instance_id
from .types import InteractionReply


class Interaction:
    """The environment's voice between turns: feedback, an opponent's move, a decision.

    After every assistant turn without tool calls, `generate_response` returns an `InteractionReply`: its text
    is sent as a user message unless it terminates the trajectory. The instance state starts as
    `{"identity": ..., "turn_scores": []}`; append each turn's score to `turn_scores` (the default
    `calculate_score` reads the last one). `name` (the row's `interaction_kwargs.name`) and `default_config` are
    declared on the class.
    """

    name: str = ""
    default_config: ClassVar[dict[str, Any]] = {}

    def __init__(self, config: dict[str, Any] | None = None):
        self.config = {**self.default_config, **(config or {})}
        self.name = self.config.get("name") or type(self).name or type(self).__name__
        self._instances: dict[str, dict[str, Any]] = {}

    def state(self, instance_id: str) -> dict[str, Any]:
        """The state of a live instance (`{"identity", "turn_scores", ...}`); KeyError names the id."""
        try:
            return self._instances[instance_id]
        except KeyError:
            raise KeyError(f"no live instance {instance_id!r} of interaction {self.name!r}") from None

    async def start_interaction(self, instance_id: str | None = None, identity: dict[str, Any] | None = None,
                                **kwargs: Any) -> str:
        instance_id = instance_id or new_instance_id()
        self._instances[instance_id] = {"identity": identity or {}, "turn_scores": []}
        return instance_id

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> InteractionReply:
        """The environment's answer to the conversation so far (`messages` ends with the assistant's turn):
        `InteractionReply(terminate, text, turn_score, extra)`; the seed's 4-tuple in that order is accepted."""
        raise NotImplementedError

    async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:
        """Default: the last turn score recorded in the instance state (0 when none)."""
        scores = self._instances.get(instance_id, {}).get("turn_scores") or [0.0]
        return float(scores[-1])

    async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:
        self._instances.pop(instance_id, None)
