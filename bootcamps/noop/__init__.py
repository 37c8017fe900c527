"""Bootcamp `noop`: reverse a token. The smallest possible bootcamp: a template and a throughput baseline."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, Bootcamp, InstructionGenerator, ReferencePolicy, RewardCalculator


class NoopInstructionGenerator(InstructionGenerator):
    def case_generator(self) -> dict[str, Any]:
        return {"token": f"{self.rng.getrandbits(64):016x}"}

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return f"Reverse the string {identity['token']} and reply with it as <answer>...</answer>."


class NoopRewardCalculator(RewardCalculator):
    identity_schema = {"type": "object", "required": ["token"], "properties": {"token": {"type": "string"}}}

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        start = output_str.rfind("<answer>")
        end = output_str.rfind("</answer>")
        return output_str[start + 8:end].strip() if 0 <= start < end else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        return extracted == identity["token"][::-1]


class NoopPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        token = self.identity["token"] if wrong else self.identity["token"][::-1]
        return {"role": "assistant", "content": f"<answer>{token}</answer>"}


class CopyPolicy(ReferencePolicy):
    """Baseline: answers the token as the prompt shows it (copying the visible data)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return {"role": "assistant", "content": f"<answer>{self.identity['token']}</answer>"}


class RandomPolicy(ReferencePolicy):
    """Baseline: a random token of the right length."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        token = f"{self.rng.getrandbits(64):016x}"
        return {"role": "assistant", "content": f"<answer>{token}</answer>"}


bootcamp = Bootcamp(
    description="Reverse a random token (no tools): the minimal bootcamp and a throughput baseline.",
    generator=NoopInstructionGenerator,
    reward=NoopRewardCalculator,
    policy=NoopPolicy,
    baselines=[Baseline("copy", CopyPolicy, "answers the token unreversed"),
               Baseline("random", RandomPolicy, "a random 16-digit hex token")],
)
