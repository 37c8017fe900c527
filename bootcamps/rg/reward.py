"""The verifier of every rg/<dataset>: reasoning-gym's own `score_answer` on the last <answer>...</answer> block."""
from __future__ import annotations

import copy
from typing import Any

import orjson

from bc_common.answer_blocks import last_tagged, number_bomb
from bc_common.bootcamp import RewardCalculator

from . import datasets
from .entry_json import restore

MIN_ANSWER_LIMIT = 4096  # longer answers are not passed to reasoning-gym's parsers (some are slow on long input)
SOLVER_ANSWER_LIMIT = 65536  # datasets with no stored answer (plans, colourings): a generous bound


def answer_block(text: str) -> str | None:
    """The text inside the last complete <answer>...</answer> block, stripped; None if there is none."""
    body = last_tagged(text, max_length=SOLVER_ANSWER_LIMIT)
    return None if body is None else body.strip()


def answer_limit(identity: dict[str, Any]) -> int:
    gold = identity.get("answer")
    return max(MIN_ANSWER_LIMIT, 16 * len(gold)) if isinstance(gold, str) else SOLVER_ANSWER_LIMIT


def entry_of(identity: dict[str, Any]) -> dict[str, Any]:
    """reasoning-gym's entry as the dataset made it: restored from the identity, or rebuilt from its coordinates
    when it had no JSON form."""
    name = identity["dataset"]
    if identity.get("regenerate"):
        params = datasets.parse_params(name, identity["config"], f"rg/{name} identity")
        return copy.deepcopy(datasets.entry(name, params, identity["seed"], identity["size"], identity["index"]))
    restored = restore({"answer": identity.get("answer"), "metadata": identity.get("metadata")},
                       identity.get("restore") or [])
    return {"question": identity.get("question", ""), **restored}


def score(identity: dict[str, Any], answer: str) -> float:
    """reasoning-gym's score of `answer` for the item `identity` names."""
    name = identity["dataset"]
    params, key = _scorer_params(name, identity["config"])
    seed, size = datasets.scorer_coordinates(name)
    scorer = datasets.scorer(name, params, key, seed, size)
    with datasets.quiet():
        value = scorer.score_answer(answer, entry_of(identity))
    return float(value or 0.0)


def _scorer_params(name: str, config: Any) -> tuple[dict[str, Any], str]:
    """`parse_params` of an identity's config and its cache key, kept per (dataset, config JSON): an identity's
    config is plain JSON, so its sorted dump names it without the per-value pass `parse_params` makes for its key."""
    try:
        raw: bytes | None = orjson.dumps(config, option=orjson.OPT_SORT_KEYS) if config.__class__ is dict else None
    except TypeError:  # not JSON: parse_params says what is wrong
        raw = None
    found = _SCORER_PARAMS.get((name, raw)) if raw is not None else None
    if found is None:
        params = datasets.parse_params(name, config, f"rg/{name} identity")
        found = (params, datasets.canonical(params))
        if raw is not None:
            if len(_SCORER_PARAMS) > datasets.CACHE_SIZE:
                _SCORER_PARAMS.clear()
            _SCORER_PARAMS[(name, raw)] = found
    return found


_SCORER_PARAMS: dict[tuple[str, bytes], tuple[dict[str, Any], str]] = {}


class RGRewardCalculator(RewardCalculator):
    """Scores the final assistant message with reasoning-gym's `score_answer` (partial credit where it gives it)."""

    identity_schema = {
        "type": "object",
        "required": ["dataset", "config", "seed", "size", "index", "question", "answer", "metadata"],
        "properties": {
            "dataset": {"type": "string"}, "config": {"type": "object"},
            "seed": {"type": "integer"}, "size": {"type": "integer"}, "index": {"type": "integer"},
            "question": {"type": "string"}, "answer": {"type": ["string", "null"]},
            "metadata": {"type": ["object", "null"]}, "restore": {"type": "array"},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return answer_block(output_str)

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        if len(extracted) > answer_limit(identity):
            return 0.0
        if number_bomb(extracted) and not number_bomb(str(identity.get("answer") or "")):
            return 0.0
        return score(identity, extracted)
