"""Small bootcamps, good and deliberately bad, for the signal checks' own tests: add two numbers `a + b`.

Each bad one has one defect a lazy policy or a meaningless group would exploit; `toy(...)` builds the manifest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import (
    Baseline,
    Bootcamp,
    Group,
    InstructionGenerator,
    ReferencePolicy,
    RewardCalculator,
    Tool,
    tool_call,
)
from bc_common.errors import ToolError
from bc_common.images import image_part, text_part

# a 1x1 PNG: the picture of a visual toy (the checks only need to see that prompts carry one)
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


@dataclass
class SumConfig:
    space: int = 1000  # a and b are drawn from range(space)
    picture: bool = False  # the prompt carries an image part

    def validate(self) -> None:
        if self.space < 1:
            raise ValueError("space must be positive")


class SumGenerator(InstructionGenerator):
    Config = SumConfig

    def case_generator(self) -> dict[str, Any]:
        return {"a": self.rng.randrange(self.space), "b": self.rng.randrange(self.space), "space": self.space}

    def prompt_func(self, identity: dict[str, Any]) -> Any:
        text = f"Add {identity['a']} and {identity['b']}; reply <answer>N</answer>."
        if not self.picture:
            return text
        return [{"role": "user", "content": [text_part(text), image_part(PIXEL)]}]


def _answer(text: str) -> int | None:
    start, end = text.rfind("<answer>"), text.rfind("</answer>")
    body = text[start + 8:end].strip() if 0 <= start < end else ""
    return int(body) if body.lstrip("-").isdigit() and len(body) < 30 else None


class SumReward(RewardCalculator):
    """1.0 for the sum, 0 otherwise."""

    @staticmethod
    def extract_output(output_str: str) -> int | None:
        return _answer(output_str)

    @classmethod
    def _verify_correction(cls, extracted: int, identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if extracted == identity["a"] + identity["b"] else 0.0


class LenientReward(SumReward):
    """Bad: pays the sum and the sum plus one (the reference's wrong answer), so noisy scores like the reference."""

    @classmethod
    def _verify_correction(cls, extracted: int, identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if extracted - (identity["a"] + identity["b"]) in (0, 1) else 0.0


class FloorReward(SumReward):
    """Bad: 0.3 for any number at all."""

    @classmethod
    def _verify_correction(cls, extracted: int, identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if extracted == identity["a"] + identity["b"] else 0.3


class SumPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        total = self.identity["a"] + self.identity["b"] + (1 if wrong else 0)
        return {"role": "assistant", "content": f"<answer>{total}</answer>"}


class ZeroPolicy(ReferencePolicy):
    """Baseline: always answers 0."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return {"role": "assistant", "content": "<answer>0</answer>"}


class GuessPolicy(ReferencePolicy):
    """Baseline: a random sum in range."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        guess = self.rng.randrange(2 * self.identity["space"] - 1)
        return {"role": "assistant", "content": f"<answer>{guess}</answer>"}


class PeekTool(Tool):
    """Reveals the sum (hidden state); with `budget` set it answers that many calls per trajectory, then refuses."""

    tool_schema = {"type": "function", "function": {
        "name": "peek", "description": "Reveal the sum.", "parameters": {"type": "object", "properties": {}}}}
    budget: int | None = None

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        if self.budget is not None and state["calls"] > self.budget:
            raise ToolError("budget_spent", f"peek answers {self.budget} call(s) per task")
        identity = state["identity"]
        return str(identity["a"] + identity["b"]), 0.0, {}


class BudgetPeekTool(PeekTool):
    budget = 1


class PeekPolicy(ReferencePolicy):
    """Baseline (blind): never looks at the picture; calls `peek` three times, then answers what it said."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        answers = [m["content"] for m in messages if m.get("role") == "tool"]
        if len(answers) < 3 and "peek" in self.tools:
            return {"role": "assistant", "content": "",
                    "tool_calls": [tool_call(f"c{len(answers)}", "peek", {})]}
        said = next((a for a in answers if a.lstrip("-").isdigit()), "0")
        return {"role": "assistant", "content": f"<answer>{said}</answer>"}


BASELINES = [Baseline("zero", ZeroPolicy, "answers 0"), Baseline("guess", GuessPolicy, "a random sum")]


def toy(name: str, *, reward: type = SumReward, groups: list[Group] | None = None, picture: bool = False,
        tools: list[type] | None = None, baselines: list[Baseline] | None = None,
        conformance: dict[str, Any] | None = None) -> Bootcamp:
    """A sum bootcamp named `name` (groups default to one of 1000-number operands)."""
    groups = groups or [Group("default", {"space": 1000})]
    groups = [Group(g.name, {**g.params, "picture": picture}, g.ratio) for g in groups]
    return Bootcamp(name=name, description=f"toy {name}", generator=SumGenerator, reward=reward, policy=SumPolicy,
                    groups=groups, tools=list(tools or []), conformance=dict(conformance or {}),
                    baselines=list(BASELINES if baselines is None else baselines))
