"""The fl collection: one bootcamp `fl/<task>` per module of `tasks/`, built from its `Task` on first use (generator,
verifier, reference policy and baselines are the same classes for every task); a task that fails a conformance check
is withheld with the measured reason (known_issues.py)."""
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

RATIOS = {"easy": 0.3, "medium": 0.4, "hard": 0.3}


def _class_name(name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + suffix


class FLInstructionGenerator(InstructionGenerator):
    """Draws an instance of the task from the row's rng, again while the task refuses it."""

    task: ClassVar[Task]

    def case_generator(self) -> dict[str, Any]:
        for _ in range(self.task.max_draws):
            inst = self.task.draw(self.config, self.rng)
            # the prompt's own example answer must not happen to solve the instance
            if inst is not None and self.task.verify(inst, self.task.prompt(inst))[0] < 1.0:
                return {"task": self.task.name, **inst}
        raise ConfigError(f"fl/{self.task.name}: no instance in {self.task.max_draws} draws with {self.config}: every draw "
                          "was degenerate or a cheap heuristic solved it; choose larger sizes")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return self.task.prompt(identity)


class FLRewardCalculator(RewardCalculator):
    """1.0 when the last answer block holds an answer the instance accepts (checked against it, and against the
    stored optimum where the task asks for the best), else 0."""

    task: ClassVar[Task]
    identity_schema: ClassVar[dict[str, Any]] = {"type": "object", "required": ["task"],
                                                 "properties": {"task": {"type": "string"}}}

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity.get("task") != cls.task.name:
            raise ValueError(f"task: {identity.get('task')!r} is not fl/{cls.task.name}'s")

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return output_str if isinstance(output_str, str) else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        return cls.task.verify(identity, extracted)[0]


def _reply(task: Task, answer: Any) -> dict[str, Any]:
    body = "no answer" if answer is None else task.show(answer)
    return {"role": "assistant", "content": f"My answer:\n<answer>{body}</answer>"}


class FLPolicy(ReferencePolicy):
    """The stored answer; `wrong=True` answers it corrupted (never accepted)."""

    task: ClassVar[Task]

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        t = self.task
        return _reply(t, t.wrong_answer(self.identity, self.rng) if wrong else t.solve(self.identity))


class FLBaseline(ReferencePolicy):
    """A declared baseline of the task (`Task.baseline_<name>`), answered without a tool."""

    task: ClassVar[Task]
    baseline_name: ClassVar[str] = ""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return _reply(self.task, self.task.baseline(self.baseline_name, self.identity, self.rng))


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
    """The generator, verifier, policy and baseline classes of fl/<name>, made once (named in this module, so their
    dotted paths import: `bootcamps.fl.collection.CnfSatInstructionGenerator`)."""
    task = TASKS[name]()
    made = {"generator": type(_class_name(name, "InstructionGenerator"), (FLInstructionGenerator,),
                              {"task": task, "Config": _config(task), "__module__": __name__}),
            "reward": type(_class_name(name, "RewardCalculator"), (FLRewardCalculator,),
                           {"task": task, "__module__": __name__}),
            "policy": type(_class_name(name, "Policy"), (FLPolicy,), {"task": task, "__module__": __name__})}
    for base in task.baselines:
        made[f"baseline_{base}"] = type(_class_name(f"{name}_{base}", "Baseline"), (FLBaseline,),
                                        {"task": task, "baseline_name": base, "__module__": __name__})
    return made


def bootcamp(name: str) -> Bootcamp:
    made = classes(name)
    task = made["generator"].task
    return Bootcamp(
        description=f"{task.title}: answer constructively; any answer the instance accepts scores 1.",
        generator=made["generator"], reward=made["reward"], policy=made["policy"],
        groups=[Group(g, params, ratio=RATIOS[g]) for g, params in task.groups.items()],
        baselines=[Baseline(b, made[f"baseline_{b}"], about) for b, about in task.baselines.items()],
        conformance=dict(task.conformance))


class Collection:
    """`names()` lists the tasks; `load(name)` is the manifest of fl/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted(TASKS)

    def load(self, name: str) -> Bootcamp | Unavailable:
        """fl/<name>'s manifest; withheld (with the measured reason) when it fails the conformance suite, unless
        `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in TASKS:
            raise KeyError(name)
        if name in WITHHELD and not include_known_issues():
            return withheld(f"{TASKS[name].title} (fl/{name}).", WITHHELD[name])
        return bootcamp(name)


def __getattr__(attr: str) -> type:
    for name in TASKS:
        for cls in classes(name).values():
            if cls.__name__ == attr:
                return cls
    raise AttributeError(attr)


collection = Collection()
