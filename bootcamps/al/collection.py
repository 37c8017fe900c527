"""The al collection: one bootcamp `al/<problem>` per problem module of `problems/`, built from its `Problem` on
first use (generator, verifier, reference policy and baselines are the same classes for every problem); the
problems that fail a conformance check are withheld with the measured reason (known_issues.py)."""
from __future__ import annotations

import functools
from dataclasses import field, make_dataclass
from typing import Any, ClassVar

from bc_common.bootcamp import (
    Baseline,
    Bootcamp,
    Group,
    InstructionGenerator,
    ReferencePolicy,
    RewardCalculator,
    Unavailable,
    include_known_issues,
    withheld,
)
from bc_common.errors import ConfigError

from .core import Problem
from .known_issues import WITHHELD
from .problems import PROBLEMS

MAX_DRAWS = 400  # instances drawn for one row before the generator gives up (the groups need a few)
RATIOS = {"easy": 0.3, "medium": 0.4, "hard": 0.3}
# the signal checks on 200 tasks per group and policy (the suite's default is 50; rows cost about a millisecond):
# baselines' rates to about +-3%. A single-turn noisy policy's success is flat across groups by construction (70%),
# so its comparison between groups fails by chance at the check's 1% level, at any sample size (README)
SIGNAL_N = 200


def _class_name(name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + suffix


class ALInstructionGenerator(InstructionGenerator):
    """Draws an instance of the problem from the row's rng, again while the problem refuses it."""

    problem: ClassVar[Problem]

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            inst = self.problem.draw(self.config, self.rng)
            if inst is not None:
                return {"problem": self.problem.name, **inst}
        raise ConfigError(f"al/{self.problem.name}: no instance in {MAX_DRAWS} draws with {self.config}: every draw "
                          "was too small or too sparse, or a cheap heuristic solved it; choose larger sizes")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return self.problem.prompt(identity)


class ALRewardCalculator(RewardCalculator):
    """1.0 when the last answer block holds a valid answer whose objective equals the stored optimum, else 0."""

    problem: ClassVar[Problem]
    identity_schema: ClassVar[dict[str, Any]] = {"type": "object", "required": ["problem"],
                                                 "properties": {"problem": {"type": "string"}}}

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity.get("problem") != cls.problem.name:
            raise ValueError(f"problem: {identity.get('problem')!r} is not al/{cls.problem.name}'s")

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return output_str if isinstance(output_str, str) else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        return cls.problem.verify(identity, extracted)[0]


def _reply(problem: Problem, answer: Any) -> dict[str, Any]:
    body = "no answer" if answer is None else problem.show(answer)
    return {"role": "assistant", "content": f"My answer:\n<answer>{body}</answer>"}


class ALPolicy(ReferencePolicy):
    """The stored optimal answer; `wrong=True` answers it corrupted (a valid but worse answer where possible)."""

    problem: ClassVar[Problem]

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        p = self.problem
        return _reply(p, p.wrong_answer(self.identity, self.rng) if wrong else p.solve(self.identity))


class ALBaseline(ReferencePolicy):
    """A declared baseline of the problem (`Problem.baseline_<name>`), answered without a tool."""

    problem: ClassVar[Problem]
    baseline_name: ClassVar[str] = ""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return _reply(self.problem, self.problem.baseline(self.baseline_name, self.identity, self.rng))


def _config(problem: Problem) -> type:
    knobs = problem.knobs

    def validate(self: Any) -> None:
        for key, knob in knobs.items():
            value = getattr(self, key)
            if not knob.low <= value <= knob.high:
                raise ValueError(f"{key} must be in [{knob.low}, {knob.high}], got {value}")
        problem.validate(self)

    fields = [(k, int, field(default=v.default, metadata={"bounds": (v.low, v.high), "help": v.about}))
              for k, v in knobs.items()]
    return make_dataclass("Config", fields, namespace={"validate": validate})


@functools.cache
def classes(name: str) -> dict[str, type]:
    """The generator, verifier, policy and baseline classes of al/<name>, made once (named in this module, so their
    dotted paths import: `bootcamps.al.collection.LisInstructionGenerator`)."""
    problem = PROBLEMS[name]()
    made = {"generator": type(_class_name(name, "InstructionGenerator"), (ALInstructionGenerator,),
                              {"problem": problem, "Config": _config(problem), "__module__": __name__}),
            "reward": type(_class_name(name, "RewardCalculator"), (ALRewardCalculator,),
                           {"problem": problem, "__module__": __name__}),
            "policy": type(_class_name(name, "Policy"), (ALPolicy,), {"problem": problem, "__module__": __name__})}
    for base in problem.baselines:
        made[f"baseline_{base}"] = type(_class_name(f"{name}_{base}", "Baseline"), (ALBaseline,),
                                        {"problem": problem, "baseline_name": base, "__module__": __name__})
    return made


def bootcamp(name: str) -> Bootcamp:
    made = classes(name)
    problem = made["generator"].problem
    return Bootcamp(
        description=f"{problem.title}: solve it exactly; any correct answer scores 1.",
        generator=made["generator"], reward=made["reward"], policy=made["policy"],
        groups=[Group(g, params, ratio=RATIOS[g]) for g, params in problem.groups.items()],
        baselines=[Baseline(b, made[f"baseline_{b}"], about) for b, about in problem.baselines.items()],
        conformance={"signal_n": SIGNAL_N})


class Collection:
    """`names()` lists the problems; `load(name)` is the manifest of al/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted(PROBLEMS)

    def load(self, name: str) -> Bootcamp | Unavailable:
        """al/<name>'s manifest; withheld (with the measured reason) when it fails the conformance suite, unless
        `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in PROBLEMS:
            raise KeyError(name)
        if name in WITHHELD and not include_known_issues():
            return withheld(f"{PROBLEMS[name].title} (al/{name}).", WITHHELD[name])
        return bootcamp(name)


def __getattr__(attr: str) -> type:
    for name in PROBLEMS:
        for cls in classes(name).values():
            if cls.__name__ == attr:
                return cls
    raise AttributeError(attr)


collection = Collection()
