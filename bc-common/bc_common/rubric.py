"""Rubric rewards: a weighted list of components (the verifier, code checks, an LLM judge), each recorded in the row.

    class FactSummaryReward(RewardCalculator):
        rubric = Rubric((Component("facts", 0.5),                       # the verifier's verify_score
                         Component("judge", 0.5, judge=JudgePrompt(TEMPLATE, ("coverage", "faithfulness"),
                                                                   context=sheet_context))))

The score is the weighted mean of the components graded. A judge component needs a `Judge` (bc-eval's is an
OpenAI-compatible model, cached on disk); without one it is `skipped` (conformance, `bc-eval --no-judge`) and the
score is the other components' weighted mean. A judge that fails is `error` with a typed reason, never a 0.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from .bootcamp import final_assistant_text

_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


class JudgeError(Exception):
    """A judge verdict that could not be had: `type` is judge_unreachable (the call failed for good) or
    judge_unparsable (the answer holds no verdict); `message` says what happened, never a secret."""

    def __init__(self, type: str, message: str):
        super().__init__(f"{type}: {message}")
        self.type, self.message = type, message

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type, "message": self.message}


@dataclass(frozen=True)
class Verdict:
    """A judge's parsed criteria, with what it cost: `usage` of the call, `cached` when no call was made."""

    criteria: dict[str, float]
    model: str
    usage: dict[str, int] = field(default_factory=dict)
    cached: bool = False


class Judge(Protocol):
    async def verdict(self, prompt: str, answer: str, parse: Callable[[str], dict[str, float]],
                      criteria: tuple[str, ...] = ()) -> Verdict:
        """The judge's answer to `prompt`, parsed (parse raises JudgeError); raises JudgeError. `criteria`: the
        keys the answer's JSON object must hold (a judge may constrain its output to them)."""
        ...


@dataclass(frozen=True)
class JudgePrompt:
    """A bootcamp's judge prompt: a `str.format` template over `{task}` (the prompt's text), `{answer}` (the
    graded assistant text) and the keys `context(identity)` returns; the judge answers a JSON object holding each
    of `criteria` as a number in [0, 1], and the component is their mean."""

    template: str
    criteria: tuple[str, ...] = ("score",)
    context: Callable[[Any], dict[str, Any]] | None = None

    def render(self, task_text: str, answer: str, identity: Any) -> str:
        # the answer is a value substituted once: braces in model text are never read as fields
        return self.template.format_map({**(self.context(identity) if self.context else {}),
                                         "task": task_text, "answer": answer})

    def parse(self, text: str) -> dict[str, float]:
        """The criteria of the last JSON object in the judge's text; JudgeError when there is none."""
        for found in reversed(_JSON_OBJECT.findall(text or "")):
            try:
                verdict = orjson.loads(found)
            except orjson.JSONDecodeError:
                continue
            values = {c: verdict.get(c) for c in self.criteria} if isinstance(verdict, dict) else {}
            if all(_unit(v) for v in values.values()) and values:
                return {c: float(v) for c, v in values.items()}
        shown = " ".join((text or "").split())[:200]
        raise JudgeError("judge_unparsable", f"no JSON object with {', '.join(self.criteria)} in [0, 1] in the "
                                             f"judge's answer: {shown!r}")


def _unit(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and 0 <= value <= 1


@dataclass(frozen=True)
class Component:
    """One weighted part of a reward: the verifier (neither `score` nor `judge`), a code check
    `score(answer_text, identity) -> [0, 1]`, or an LLM judge (`judge`)."""

    name: str
    weight: float
    score: Callable[[str, Any], float] | None = None
    judge: JudgePrompt | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.weight, (int, float)) and math.isfinite(self.weight) and self.weight > 0):
            raise ValueError(f"rubric component {self.name!r}: weight must be a positive number")
        if self.score is not None and self.judge is not None:
            raise ValueError(f"rubric component {self.name!r}: a code check or a judge, not both")


@dataclass(frozen=True)
class Rubric:
    components: tuple[Component, ...]

    def __post_init__(self) -> None:
        names = [c.name for c in self.components]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"a rubric needs components with distinct names, got {names}")

    @property
    def judged(self) -> bool:
        return any(c.judge is not None for c in self.components)


@dataclass
class Graded:
    """What the grading of one trajectory gives: the score, each component's value (None: not graded), and the
    judge's record (`status` ok / skipped / error, criteria, model, usage, cached, error)."""

    score: float
    components: dict[str, float | None] | None = None
    weights: dict[str, float] | None = None
    judge: dict[str, Any] | None = None

    @property
    def judge_error(self) -> dict[str, str] | None:
        return (self.judge or {}).get("error") if (self.judge or {}).get("status") == "error" else None


def rubric_of(reward: Any) -> Rubric | None:
    rubric = getattr(reward, "rubric", None)
    return rubric if isinstance(rubric, Rubric) else None


async def grade_rubric(rubric: Rubric, verifier_score: float, messages: list[dict[str, Any]], identity: Any,
                       judge: Judge | None, *, skip_judge: str | None = None,
                       extract: Callable[[str], Any] | None = None) -> Graded:
    """Every component of `rubric` for a conversation whose verifier scored `verifier_score`. `skip_judge`: why
    the judge is not asked (a failed rollout); without a judge the judge components are skipped. `extract` (the
    verifier's extract_output) gives what the judge and the checks grade; when it finds no answer, the judge
    component is 0 without a call (status no_answer)."""
    answer = final_assistant_text(messages)
    if extract is not None:
        try:
            found = extract(answer)
        except Exception:
            found = None
        answer = found if isinstance(found, str) else ""
    values: dict[str, float | None] = {}
    record: dict[str, Any] | None = None
    for c in rubric.components:
        if c.judge is not None:
            if judge is None or skip_judge:
                values[c.name] = None
                record = {"status": "skipped", "reason": skip_judge or "no judge configured"}
                continue
            if not answer.strip():  # nothing to judge is a verdict of its own, not a failure
                values[c.name] = 0.0
                record = {"status": "no_answer"}
                continue
            try:
                verdict = await judge.verdict(c.judge.render(_task_text(messages), answer, identity), answer,
                                              c.judge.parse, c.judge.criteria)
            except JudgeError as exc:
                values[c.name] = None
                record = {"status": "error", "error": exc.as_dict()}
                continue
            values[c.name] = sum(verdict.criteria.values()) / len(verdict.criteria)
            record = {"status": "ok", "model": verdict.model, "criteria": verdict.criteria, "usage": verdict.usage,
                      "cached": verdict.cached}
        elif c.score is not None:
            values[c.name] = check_value(c, answer, identity)
        else:
            values[c.name] = verifier_score
    return combine(rubric, values, record)


def check_value(component: Component, answer: str, identity: Any) -> float:
    """A code component's value in [0, 1] (a failing check grades nothing, like a failing verifier)."""
    try:
        value = float(component.score(answer, identity))  # type: ignore[misc]
    except Exception:
        return 0.0
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def combine(rubric: Rubric, values: dict[str, float | None], judge: dict[str, Any] | None = None) -> Graded:
    """The weighted mean of the components graded (None: not graded)."""
    weights = {c.name: float(c.weight) for c in rubric.components}
    graded = [(weights[name], value) for name, value in values.items() if value is not None]
    total = sum(w for w, _ in graded)
    score = sum(w * v for w, v in graded) / total if total else 0.0
    return Graded(round(score, 12), values, weights, judge)


def _task_text(messages: list[dict[str, Any]]) -> str:
    """The first user message's text (the task as the model saw it, images left out)."""
    for m in messages:
        if m.get("role") == "user":
            content = m.get("content")
            if isinstance(content, list):
                return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
            return str(content or "")
    return ""
