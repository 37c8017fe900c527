"""The bootcamp contract in one import: the four base classes users subclass, the reference policy, the
manifest and the reply types (docs/authoring.md).

The generator, the verifier and the reference policy are defined here; `Tool` (`bc_common.tool`), `Interaction`
(`bc_common.interaction`), the manifest (`bc_common.manifest`) and `ToolResult` / `InteractionReply`
(`bc_common.types`) are re-exported. Names and signatures follow the seed (InternBootcamp) so existing bootcamps
port with little change; the seed's class names (`BaseInstructionGenerator`, `BaseRewardCalculator`, `BaseTool`,
`BaseInteraction`) are aliases. Randomness comes only from `self.rng`, which the framework seeds for every record.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from .config import build_dataclass
from .errors import GraderUnavailable
from .interaction import Interaction
from .manifest import (
    Baseline,
    Bootcamp,
    Group,
    Unavailable,
    include_known_issues,
    missing_extra,
    missing_modules,
    withheld,
)
from .seats import SeatedGame, SeatOutcome
from .seeding import RecordRandom
from .tool import Tool
from .types import InteractionReply, ToolResult
from .verify_kwargs import split_verify_kwargs


@dataclass
class NoConfig:
    """Generators without parameters."""


class InstructionGenerator:
    """Makes task instances: `case_generator()` draws an identity, `prompt_func(identity)` renders it.

    Declare parameters as a dataclass in `Config`; keyword arguments are checked against it (an unknown key is
    an error naming it) and copied onto `self`, so `self.min_value` works as in the seed. A generator without a
    `Config` (a seed port) gets its keyword arguments as attributes, unchecked, as the seed did.
    """

    Config: ClassVar[type] = NoConfig
    name: ClassVar[str] = ""

    def __init__(self, **kwargs: Any):
        source = kwargs.pop("_source", None)
        if self.Config is NoConfig:
            self.config = NoConfig()
            for key, value in kwargs.items():
                setattr(self, key, value)
        else:
            self.config = build_dataclass(self.Config, kwargs, source=source or type(self).__name__)
            for f in dataclasses.fields(self.config):
                setattr(self, f.name, getattr(self.config, f.name))
        self.rng: random.Random = RecordRandom(0)  # reseeded for every record by the framework
        # the row's index in its split, set by the framework before each draw (None outside it): a generator may
        # stratify by it (answer labels in turn), never make a row depend on anything but (seed, index)
        self.index: int | None = None
        bootcamp = self.name or type(self).__name__.replace("InstructionGenerator", "").lower()
        self.data_source = f"bootcamp/{bootcamp}"

    def case_generator(self) -> dict[str, Any]:
        """Draw one instance from `self.rng`. Returns a JSON-serialisable identity that fully determines it."""
        raise NotImplementedError

    def prompt_func(self, identity: dict[str, Any]) -> str | list[dict[str, Any]]:
        """Render the instance as a user prompt (a string) or as chat messages."""
        raise NotImplementedError


class RewardCalculator:
    """Grades the assistant's own text against the identity. Never sees tool output or interaction text.

    `grades = "last"` (default) grades the final assistant message; `grades = "all"` grades every assistant
    message in order (games, where the moves are the answer): `extract_output` then receives that list.
    `identity_schema` (a JSON Schema) and/or `check_identity(identity)` let the harness refuse a ground truth of
    the wrong shape before grading (`bc_common.identity`); `verify_kwargs` names kwargs of its own.
    """

    grades: ClassVar[str] = "last"
    identity_schema: ClassVar[dict[str, Any] | None] = None
    verify_kwargs: ClassVar[frozenset[str] | set[str]] = frozenset()  # own kwargs of _verify_correction

    @staticmethod
    def extract_output(output_str: Any) -> Any:
        """Pull the candidate answer out of the final assistant text (or the list of assistant texts when
        `grades == "all"`); None when there is none."""
        raise NotImplementedError

    @classmethod
    def _verify_correction(cls, extracted: Any, identity: dict[str, Any], **kwargs: Any) -> bool | float:
        """True/1.0 when `extracted` solves the instance; a float in [0, 1] for partial credit."""
        raise NotImplementedError

    @classmethod
    def verify_score(cls, model_output: str | list, identity: dict[str, Any],
                     format_score: float = 0.0, **kwargs: Any) -> float:
        """Score in [0, 1]. `model_output` is the final assistant text, or a message list whose assistant
        messages are graded (the last one, or all of them). `format_score` is given to a well-formed but wrong
        answer; the other seed kwargs are in `bc_common.verify_kwargs`, the rest go to `_verify_correction`."""
        rules, kwargs = split_verify_kwargs(cls, dict(kwargs, format_score=format_score))
        if cls.grades == "all":
            if isinstance(model_output, list):
                texts = [t for t in model_output if isinstance(t, str)] if all(
                    isinstance(t, str) for t in model_output) else assistant_texts(model_output)
            else:
                texts = [model_output]
            if not any(isinstance(t, str) and t.strip() for t in texts):
                return 0.0
            candidate: Any = texts
        else:
            candidate = final_assistant_text(model_output) if isinstance(model_output, list) else model_output
            if not isinstance(candidate, str) or not candidate.strip():
                return 0.0
        if rules.penalises(model_output, candidate if cls.grades == "all" else [candidate]):
            return 0.0
        try:
            extracted = cls.extract_output(candidate)
        except Exception:  # a verifier must not crash on hostile text
            return 0.0
        if extracted is None:
            return 0.0
        try:
            score = float(cls._verify_correction(extracted, identity, **kwargs))
        except GraderUnavailable:  # the grader could not run: not the answer's score (the row becomes an error)
            raise
        except Exception:
            return 0.0
        score = min(1.0, max(0.0, score))
        return score if score >= 1.0 else max(score, rules.format_score)


def _content_text(content: Any) -> str:
    if isinstance(content, list):  # content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def assistant_texts(messages: list[dict[str, Any]]) -> list[str]:
    """The text of every assistant message, in order (what a `grades = "all"` verifier grades)."""
    return [_content_text(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]


def final_assistant_text(messages: list[dict[str, Any]]) -> str:
    """The content of the last assistant message (the text a verifier grades); '' when there is none."""
    for msg in reversed(messages):
        if isinstance(msg, dict) and msg.get("role") == "assistant":
            return _content_text(msg.get("content"))
    return ""


class ReferencePolicy:
    """A policy that solves an instance through the same tool-call protocol a model uses.

    `respond(messages)` returns the next assistant message (OpenAI chat format, possibly with `tool_calls`).
    With `wrong=True` the policy answers this turn incorrectly (the built-in noisy model uses it). It proves the
    verifier: the reference scores 1.0, its corrupted answers score less.
    """

    def __init__(self, identity: dict[str, Any], tools: list[str] | None = None):
        self.identity = identity
        self.tools = list(tools or [])
        # a stream keyed by (task, sample, turn), set by the built-in models before `respond` (random play)
        self.rng: random.Random = random.Random(0)

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        raise NotImplementedError


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI `tool_calls` entry, as policies and scripted models emit them."""
    import orjson

    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": orjson.dumps(arguments).decode()}}


def tool_reports(messages: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(tool name, arguments, parsed JSON report) for every tool result in the conversation, in order; tool
    replies that are not a JSON object (an error text) are skipped. What a policy reads back from JSON tools."""
    import orjson

    calls: dict[str, tuple[str, Any]] = {}
    out = []
    for msg in messages:
        if msg.get("role") == "assistant":
            for call in msg.get("tool_calls") or []:
                fn = call.get("function") or {}
                calls[call.get("id", "")] = (fn.get("name", ""), fn.get("arguments"))
        elif msg.get("role") == "tool" and msg.get("tool_call_id") in calls:
            name, arguments = calls[msg["tool_call_id"]]
            try:
                args = orjson.loads(arguments) if isinstance(arguments, (str, bytes)) else arguments
                result = orjson.loads(msg.get("content") or "")
            except orjson.JSONDecodeError:
                continue  # an error text, not a report
            if isinstance(args, dict) and isinstance(result, dict):
                out.append((name, args, result))
    return out


# The seed's base-class names, so a seed bootcamp ports by changing its imports only.
BaseInstructionGenerator = InstructionGenerator
BaseRewardCalculator = RewardCalculator
BaseTool = Tool
BaseInteraction = Interaction

__all__ = ["InstructionGenerator", "RewardCalculator", "Tool", "Interaction", "ReferencePolicy", "Bootcamp", "Baseline",
           "Group", "Unavailable", "missing_extra", "missing_modules", "withheld", "include_known_issues", "tool_call", "tool_reports",
           "final_assistant_text", "assistant_texts", "ToolResult", "InteractionReply", "SeatedGame", "SeatOutcome",
           "BaseInstructionGenerator", "BaseRewardCalculator", "BaseTool", "BaseInteraction"]
