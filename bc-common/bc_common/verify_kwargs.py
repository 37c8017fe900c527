"""The seed's `verify_score` keyword arguments: what each means, which keys a verifier accepts, checked up front.

    rules, own = split_verify_kwargs(ArithmeticRewardCalculator, {"format_penalty": True, "tolerance": "1e-3"})
    rules.penalises(messages, [final_text])   # True: the answer scores 0 whatever it says
    own                                       # {"tolerance": "1e-3"}: for the bootcamp's _verify_correction

- `format_score` (number in [0, 1], default 0): the score of a well-formed answer (one the verifier can read)
  that is wrong.
- `format_penalty` (bool, default false): an answer whose think tags are out of place scores 0. In place means
  at most one `<think>...</think>` block, closed, before any other text; a stray, unclosed or repeated tag fails.
- `short_penalty` (bool; default false, or true when `short_threshold` is given) with `short_threshold`
  (characters, default 100): a graded text shorter than that scores 0.
- `think_threshold` (characters, default 0 = off): less reasoning than that scores 0. The reasoning is the
  message's `reasoning_content` when the server sent it apart, else the text of its `<think>` block.
- `ans_threshold` (characters, default 0 = off): an answer part (the text after the think block) shorter than
  that scores 0.

Every graded text must pass (the final assistant text, or every assistant text of a `grades = "all"` verifier).
Any other key is an error, unless the verifier declares it: `verify_kwargs: ClassVar[set[str]] = {"tolerance"}`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError

SEED_KEYS = frozenset({"format_score", "format_penalty", "short_penalty", "short_threshold", "think_threshold",
                       "ans_threshold"})
DEFAULT_SHORT_THRESHOLD = 100  # the seed's default
OPEN, CLOSE = "<think>", "</think>"


@dataclass(frozen=True)
class ScoreRules:
    """The seed keys, checked: what makes an answer score 0 before the verifier looks at it."""

    format_score: float = 0.0
    format_penalty: bool = False
    short_threshold: int = 0  # 0: no short penalty
    think_threshold: int = 0
    ans_threshold: int = 0

    @property
    def gates(self) -> bool:
        return bool(self.format_penalty or self.short_threshold or self.think_threshold or self.ans_threshold)

    def penalises(self, model_output: Any, texts: list[Any]) -> bool:
        """True when any graded text breaks a rule. `model_output` is what verify_score got (a message list
        lends each text its `reasoning_content`)."""
        if not self.gates:
            return False
        reasonings = _reasonings(model_output, len(texts))
        return any(self._breaks(text if isinstance(text, str) else "", reasoning)
                   for text, reasoning in zip(texts, reasonings, strict=True))

    def _breaks(self, text: str, reasoning: str | None) -> bool:
        thinking, answer, well_formed = think_and_answer(text)
        if self.format_penalty and not well_formed:
            return True
        if len(text) < self.short_threshold:
            return True
        if self.think_threshold and len((reasoning or thinking or "").strip()) < self.think_threshold:
            return True
        return bool(self.ans_threshold) and len(answer.strip()) < self.ans_threshold


DEFAULT_RULES = ScoreRules()


def think_and_answer(text: str) -> tuple[str, str, bool]:
    """(reasoning, answer, well_formed) of an assistant text. `<think>a</think>b` gives ("a", "b", True); a text
    without tags is all answer; an unclosed block is all reasoning (and not well formed)."""
    close = text.rfind(CLOSE)
    if close < 0:
        opened = text.find(OPEN)
        if opened < 0:
            return "", text, True
        return text[opened + len(OPEN):], "", False
    head, answer = text[:close], text[close + len(CLOSE):]
    opened = head.find(OPEN)
    # some chat templates open the block in the prompt: the text then starts inside it, with no <think>
    thinking = head[opened + len(OPEN):] if opened >= 0 else head
    well_formed = ((opened < 0 or not head[:opened].strip()) and OPEN not in thinking and CLOSE not in thinking
                   and OPEN not in answer)
    return thinking, answer, well_formed


def _reasonings(model_output: Any, n: int) -> list[str | None]:
    """The `reasoning_content` of the last `n` assistant messages (None where absent or not a message list)."""
    if not isinstance(model_output, list) or not all(isinstance(m, dict) for m in model_output):
        return [None] * n
    found = [m.get("reasoning_content") if isinstance(m.get("reasoning_content"), str) else None
             for m in model_output if m.get("role") == "assistant"][-n:] if n else []
    return [None] * (n - len(found)) + found


def accepted_keys(reward_cls: type) -> frozenset[str]:
    """The keys `reward_cls.verify_score` accepts: the seed's and the verifier's own (`verify_kwargs`)."""
    return SEED_KEYS | frozenset(getattr(reward_cls, "verify_kwargs", ()) or ())


def check_verify_kwargs(reward_cls: type, kwargs: dict[str, Any], flag: str = "--verify-correction-kwargs") -> None:
    """Raise ConfigError (exit 2) naming a key `reward_cls` does not accept or a seed key of the wrong type."""
    accepted = accepted_keys(reward_cls)
    for key in kwargs:
        if key not in accepted:
            close = difflib.get_close_matches(str(key), sorted(accepted), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{flag}: {reward_cls.__name__} does not accept {key!r}{hint}; accepted: "
                              f"{', '.join(sorted(accepted))}")
    score_rules(kwargs, flag)


def score_rules(kwargs: dict[str, Any], flag: str = "verify_score") -> ScoreRules:
    """The ScoreRules of the seed keys in `kwargs` (other keys are ignored here); ConfigError on a wrong type."""
    if not kwargs.keys() & SEED_KEYS:
        return DEFAULT_RULES
    format_score = kwargs.get("format_score", 0.0)
    if isinstance(format_score, bool) or not isinstance(format_score, (int, float)) or not 0 <= format_score <= 1:
        raise ConfigError(f"{flag}: format_score must be a number in [0, 1], got {format_score!r}")
    for key in ("format_penalty", "short_penalty"):
        if key in kwargs and not isinstance(kwargs[key], bool):
            raise ConfigError(f"{flag}: {key} must be true or false, got {kwargs[key]!r}")
    lengths = {}
    for key in ("short_threshold", "think_threshold", "ans_threshold"):
        value = kwargs.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{flag}: {key} must be a whole number of characters >= 0, got {value!r}")
        lengths[key] = value
    short = kwargs.get("short_penalty", "short_threshold" in kwargs)
    return ScoreRules(format_score=float(format_score), format_penalty=bool(kwargs.get("format_penalty", False)),
                      short_threshold=(kwargs.get("short_threshold", DEFAULT_SHORT_THRESHOLD) if short else 0),
                      think_threshold=lengths["think_threshold"], ans_threshold=lengths["ans_threshold"])


def split_verify_kwargs(reward_cls: type, kwargs: dict[str, Any]) -> tuple[ScoreRules, dict[str, Any]]:
    """(the seed keys as ScoreRules, the rest for `_verify_correction`). Raises ConfigError on a key the
    verifier does not accept."""
    if not kwargs:
        return DEFAULT_RULES, {}
    if kwargs.keys() <= {"format_score"}:  # the usual calls (bc-eval's default, bc-train's reward): no lookups
        value = kwargs["format_score"]
        return (DEFAULT_RULES if value == 0 and type(value) in (int, float) else score_rules(kwargs)), {}
    check_verify_kwargs(reward_cls, kwargs, "verify_score")
    return score_rules(kwargs), {k: v for k, v in kwargs.items() if k not in SEED_KEYS}
