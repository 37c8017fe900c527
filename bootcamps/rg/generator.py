"""One InstructionGenerator per reasoning-gym dataset: `LegCountingInstructionGenerator` is rg/leg_counting's.

The classes are made on first use (a module `__getattr__`), so `bootcamps.rg.generator.LegCountingInstructionGenerator`
is an importable dotted path, as `bc-gen -j` workers and seed-format YAML configs need.
"""
from __future__ import annotations

import functools
from typing import Any, ClassVar

import orjson

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from . import datasets
from .balance import answer_of, balance, config_key
from .entry_json import Unencodable, to_json
from .policy import reference_answer
from .reward import RGRewardCalculator
from .solvers import SOLVERS

ANSWER_FORMAT = ("\n\nThink it through, then give only your final answer inside answer tags, in the form the "
                 "question asks for: <answer>your answer</answer>")
ATTEMPTS = 16  # items reasoning-gym fails to make (it raises) are redrawn, deterministically, from the row's rng
BALANCE_DRAWS = 128  # items the answer balance may turn away for one row (bootcamps/rg/balance.py)


class RGInstructionGenerator(InstructionGenerator):
    """Draws a reasoning-gym item from the row's rng; the identity is the item and its coordinates. Items are
    kept by the dataset's answer balance (bootcamps/rg/balance.py), so no answer stands out."""

    rg_dataset: ClassVar[str] = ""

    def case_generator(self) -> dict[str, Any]:
        plan = self._plan()
        identity = self.identity_of(self.rg_dataset, plan)
        answers = plan.answers
        label = answers.target_label(self.index, self.rg_dataset)
        drawn = []
        for _ in range(BALANCE_DRAWS):
            if answers.accept(answer_of(identity), self.rng, label):
                return identity
            drawn.append(identity)
            identity = self.identity_of(self.rg_dataset, plan)
        return drawn[answers.fallback([answer_of(d) for d in drawn])]  # every draw turned away

    def _plan(self) -> Plan:
        """What every row of this generator shares (its parameters, their keys, the answer balance), made once."""
        plan = self.__dict__.get("_rg_plan")
        if plan is None or plan.config is not self.config:
            plan = self.__dict__["_rg_plan"] = Plan(self.rg_dataset, datasets.params_of(self.config), self.config,
                                                    balanced=True)
        return plan

    def identity_of(self, name: str, plan: Plan) -> dict[str, Any]:
        failures = []
        for _ in range(ATTEMPTS):
            seed, size, index = datasets.coordinates(name, self.rng)
            try:
                item = datasets.entry(name, plan.params, seed, size, index, key=plan.key)
            except Exception as exc:  # noqa: BLE001  (reasoning-gym gives up on some draws: draw again)
                failures.append(f"reasoning-gym failed: {type(exc).__name__}: {_said(exc)}")
                continue
            if not isinstance(item, dict) or not isinstance(item.get("question"), str):
                failures.append(f"reasoning-gym gave no item with a question (got {type(item).__name__})")
                continue
            identity = _identity(name, plan, seed, size, index, item)
            problem = unanswerable(identity, plan)
            if problem:
                failures.append(problem)
                continue
            return identity
        raise ConfigError(f"rg/{name}: {ATTEMPTS} draws in a row gave no item with an answer the verifier accepts, "
                          f"e.g. {failures[0][:300]}")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return f"{identity['question'].rstrip()}{ANSWER_FORMAT}"


def _said(exc: BaseException) -> str:
    """An exception's message, even where its __str__ is broken (a config field set to the wrong type can make
    reasoning-gym raise with a list for a message)."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return repr(exc.args)[:300]


class Plan:
    """A dataset's parameters as rows use them: typed (`params`), their cache key, their JSON form as identities
    hold it, and the answer balance of the configuration."""

    def __init__(self, name: str, params: dict[str, Any], config: Any = None, balanced: bool = False):
        self.name, self.params, self.config = name, params, config
        self.key = datasets.canonical(params)
        try:
            config_json, _ = to_json(datasets.jsonable(params))  # tuples become lists; the Config's field types restore them when scoring
        except Unencodable as exc:
            raise ConfigError(f"rg/{name}: parameters {params} have no JSON form ({exc})") from None
        self.config_bytes = orjson.dumps(config_json)
        self.answers = balance(name, config_key(config_json)) if balanced else None  # the config as the row holds it
        # the stored answer alone decides its own score (reasoning-gym's base score_answer, no solver): verified once
        self.answer_only = name not in SOLVERS and scores_by_answer_alone(name)


def scores_by_answer_alone(name: str) -> bool:
    """Is the dataset's `score_answer` reasoning-gym's base one (a function of the answer and the stored answer)?"""
    from reasoning_gym.dataset import ProceduralDataset

    return datasets.DATASETS[name][0].score_answer is ProceduralDataset.score_answer


def unanswerable(identity: dict[str, Any], plan: Plan | None = None) -> str | None:
    """Why the reference cannot answer this item (reasoning-gym stores "No solution" for some jugs, a 6-cube has
    no answer in its notation), or None: only items with a verified answer are emitted.
    Where the score is a function of the answer alone (`plan.answer_only`, a string answer stored as itself), the
    verdict is kept per (dataset, parameters, answer), and made from the answer alone."""
    stored = identity.get("answer")
    if plan is None or not plan.answer_only or stored.__class__ is not str or identity.get("regenerate") \
            or any(mark[0][:1] == ["answer"] for mark in identity.get("restore") or ()):
        return _unanswerable(identity)
    key = (identity["dataset"], plan.key, stored)
    try:
        return _VERDICTS[key]
    except KeyError:
        pass
    # the verdict of the answer alone: the metadata (the grids of arc_1d: most of a row's check) is not restored
    verdict = _VERDICTS[key] = _unanswerable({"dataset": identity["dataset"], "config": identity["config"],
                                              "question": identity.get("question", ""), "answer": stored,
                                              "metadata": None})
    if len(_VERDICTS) > VERDICTS_KEPT:
        _VERDICTS.pop(next(iter(_VERDICTS)))
    return verdict


_VERDICTS: dict[tuple[str, str, str], str | None] = {}
VERDICTS_KEPT = 65536


def _unanswerable(identity: dict[str, Any]) -> str | None:
    try:
        answer = reference_answer(identity)
    except Exception as exc:  # noqa: BLE001  (a solver that finds nothing)
        return f"no reference answer: {type(exc).__name__}: {exc}"
    if RGRewardCalculator.verify_score(f"<answer>{answer}</answer>", identity) < 1.0:
        return f"the stored answer {answer[:80]!r} does not score 1.0"
    return None


def make_identity(name: str, params: dict[str, Any], seed: int, size: int, index: int,
                  item: dict[str, Any]) -> dict[str, Any]:
    """The JSON identity of a reasoning-gym item: its coordinates, question, answer and metadata (with the
    marks that restore tuples and int keys; an item with no JSON form is rebuilt from its coordinates)."""
    return _identity(name, Plan(name, params), seed, size, index, item)


def _identity(name: str, plan: Plan, seed: int, size: int, index: int, item: dict[str, Any]) -> dict[str, Any]:
    identity: dict[str, Any] = {"dataset": name, "config": orjson.loads(plan.config_bytes), "seed": seed,
                                "size": size, "index": index, "question": str(item["question"])}
    try:
        payload, marks = to_json({"answer": item.get("answer"), "metadata": item.get("metadata", {})})
    except Unencodable:
        identity.update(answer=_text_or_none(item.get("answer")), metadata=None, regenerate=True)
        return identity
    identity.update(payload)
    if marks:
        identity["restore"] = marks
    return identity


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


class MixtureInstructionGenerator(RGInstructionGenerator):
    """rg/composite: each row draws a dataset of `datasets` by weight, then an item of it."""

    rg_dataset = datasets.COMPOSITE

    def case_generator(self) -> dict[str, Any]:
        specs = self.config.datasets
        chosen = self.rng.choices(specs, weights=[float(s.get("weight", 1.0)) for s in specs])[0]
        params = datasets.parse_params(chosen["name"], chosen.get("config") or {},
                                       f"rg/composite {chosen['name']}")
        identity = self.identity_of(chosen["name"], _composite_plan(chosen["name"], params))
        identity["composite"] = True
        return identity


_PLANS: dict[tuple[str, int], Plan] = {}


def _composite_plan(name: str, params: dict[str, Any]) -> Plan:
    """The plan of a composite's dataset (parse_params keeps one params dict per configuration: its id keys it)."""
    plan = _PLANS.get((name, id(params)))
    if plan is None or plan.params is not params:
        if len(_PLANS) > datasets.CACHE_SIZE:
            _PLANS.clear()
        plan = _PLANS[(name, id(params))] = Plan(name, params)
    return plan


@functools.cache
def generator_class(name: str) -> type[RGInstructionGenerator]:
    """The generator class of rg/<name>."""
    if name not in datasets.DATASETS:
        raise KeyError(name)
    base = MixtureInstructionGenerator if name == datasets.COMPOSITE else RGInstructionGenerator
    qualname = f"{datasets.camel(name)}InstructionGenerator"
    return type(qualname, (base,), {"rg_dataset": name, "name": f"rg/{name}", "Config": datasets.config_class(name),
                                     "__module__": __name__, "__qualname__": qualname,
                                     "__doc__": f"rg/{name}: {datasets.description(name)}"})


_BY_CLASS_NAME = {f"{datasets.camel(n)}InstructionGenerator": n for n in datasets.names()}


def __getattr__(attr: str) -> Any:
    name = _BY_CLASS_NAME.get(attr)
    if name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
    return generator_class(name)
