"""The sy collection: one bootcamp `sy/<task>` per task module of `tasks/`, built from its `Task` on first use
(generator, verifier, reference policy and baselines are the same classes for every task); the tasks that fail a
conformance check are withheld with the measured reason (known_issues.py)."""
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

from .core import Task
from .known_issues import WITHHELD
from .tasks import TASKS

MAX_DRAWS = 200  # instances drawn for one row before the generator gives up
RATIOS = {"easy": 0.3, "medium": 0.4, "hard": 0.3}


def _class_name(name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + suffix


class SYInstructionGenerator(InstructionGenerator):
    """Draws an instance of the task from the row's rng, again while the task refuses it."""

    task: ClassVar[Task]

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            inst = self.task.draw(self.config, self.rng)
            if inst is not None:
                return {"task": self.task.name, **inst}
        raise ConfigError(f"sy/{self.task.name}: no instance in {MAX_DRAWS} draws with {self.config}: every draw "
                          "was degenerate or solved by a cheap baseline; choose other sizes")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return self.task.prompt(identity)


class SYRewardCalculator(RewardCalculator):
    """1.0 when the last answer block holds an answer the task's check accepts (any equivalent form), else 0."""

    task: ClassVar[Task]
    identity_schema: ClassVar[dict[str, Any]] = {"type": "object", "required": ["task", "answer"],
                                                 "properties": {"task": {"type": "string"},
                                                                "answer": {"type": "string"}}}

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity.get("task") != cls.task.name:
            raise ValueError(f"task: {identity.get('task')!r} is not sy/{cls.task.name}'s")

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return output_str if isinstance(output_str, str) else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        return cls.task.verify(identity, extracted)[0]


def _reply(body: str | None) -> dict[str, Any]:
    return {"role": "assistant", "content": f"My answer:\n<answer>{body or 'no answer'}</answer>"}


class SYPolicy(ReferencePolicy):
    """The stored answer; `wrong=True` answers a near miss (the task's corruption)."""

    task: ClassVar[Task]

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        t = self.task
        return _reply(t.wrong_answer(self.identity, self.rng) if wrong else self.identity["answer"])


class SYBaseline(ReferencePolicy):
    """A declared baseline of the task (`Task.baseline_<name>`)."""

    task: ClassVar[Task]
    baseline_name: ClassVar[str] = ""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return _reply(self.task.baseline(self.baseline_name, self.identity, self.rng))


def _config(task: Task) -> type:
    knobs = task.knobs

    def validate(self: Any) -> None:
        for key, knob in knobs.items():
            value = getattr(self, key)
            if not knob.low <= value <= knob.high:
                raise ValueError(f"{key} must be in [{knob.low}, {knob.high}], got {value}")
        task.validate(self)

    fields = [(k, int, field(default=v.default, metadata={"bounds": (v.low, v.high), "help": v.about}))
              for k, v in knobs.items()]
    return make_dataclass("Config", fields, namespace={"validate": validate})


@functools.cache
def classes(name: str) -> dict[str, type]:
    """The generator, verifier, policy and baseline classes of sy/<name>, made once (named in this module, so their
    dotted paths import: `bootcamps.sy.collection.FactorInstructionGenerator`)."""
    task = TASKS[name]()
    made = {"generator": type(_class_name(name, "InstructionGenerator"), (SYInstructionGenerator,),
                              {"task": task, "Config": _config(task), "__module__": __name__}),
            "reward": type(_class_name(name, "RewardCalculator"), (SYRewardCalculator,),
                           {"task": task, "__module__": __name__}),
            "policy": type(_class_name(name, "Policy"), (SYPolicy,), {"task": task, "__module__": __name__})}
    for base in task.baselines:
        made[f"baseline_{base}"] = type(_class_name(f"{name}_{base}", "Baseline"), (SYBaseline,),
                                        {"task": task, "baseline_name": base, "__module__": __name__})
    return made


def bootcamp(name: str) -> Bootcamp:
    made = classes(name)
    task = made["generator"].task
    return Bootcamp(
        description=f"{task.title}: answer exactly; any correct answer in any equivalent form scores 1.",
        generator=made["generator"], reward=made["reward"], policy=made["policy"],
        groups=[Group(g, params, ratio=RATIOS[g]) for g, params in task.groups.items()],
        baselines=[Baseline(b, made[f"baseline_{b}"], about) for b, about in task.baselines.items()])


class Collection:
    """`names()` lists the tasks; `load(name)` is the manifest of sy/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted(TASKS)

    def load(self, name: str) -> Bootcamp | Unavailable:
        """sy/<name>'s manifest; withheld (with the measured reason) when it fails the conformance suite, unless
        `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in TASKS:
            raise KeyError(name)
        if name in WITHHELD and not include_known_issues():
            return withheld(f"{TASKS[name].title} (sy/{name}).", WITHHELD[name])
        return bootcamp(name)


def __getattr__(attr: str) -> type:
    for name in TASKS:
        for cls in classes(name).values():
            if cls.__name__ == attr:
                return cls
    raise AttributeError(attr)


collection = Collection()
