"""One InstructionGenerator per reasoning-core task: `ArithmeticsInstructionGenerator` is rc/arithmetics'.

The classes are made on first use (a module `__getattr__`), so `bootcamps.rc.generator.ArithmeticsInstructionGenerator`
is an importable dotted path, as `bc-gen -j` workers and seed-format YAML configs need.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, ClassVar

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError
from bc_common.seeding import canonical_json

from . import tasks
from .balance import balance, config_key
from .policy import reference_answer
from .reward import RCRewardCalculator

ANSWER_FORMAT = ("\n\nThink it through, then give only your final answer inside answer tags, in the form the "
                 "question asks for: <answer>your answer</answer>")
ATTEMPTS = 16  # items reasoning-core fails to make (it raises) are redrawn, deterministically, from the row's rng
BALANCE_DRAWS = 128  # items the answer balance may turn away for one row (bootcamps/rc/balance.py)
PROMPT_LIMIT = 32_000  # characters: longer prompts are redrawn (reasoning-core's own token filter is off: it
# counts tiktoken tokens where tiktoken is installed and words elsewhere, so rows would differ between machines)


class RCInstructionGenerator(InstructionGenerator):
    """Draws a reasoning-core item from the row's rng; the identity is the item and its coordinates. Items are
    kept by the task's answer balance (bootcamps/rc/balance.py), so no answer stands out."""

    rc_task: ClassVar[str] = ""

    def case_generator(self) -> dict[str, Any]:
        params = {f.name: getattr(self.config, f.name) for f in dataclasses.fields(self.config) if f.name != "level"}
        answers = balance(self.rc_task, config_key(params), self.config.level)
        label = answers.target_label(self.index, self.rc_task)
        drawn = []
        for _ in range(BALANCE_DRAWS):
            identity = self._draw(params)
            if answers.accept(reference_answer(identity), self.rng, label):
                return identity
            drawn.append(identity)
        return drawn[answers.fallback([reference_answer(d) for d in drawn])]  # every draw turned away

    def _draw(self, params: dict[str, Any]) -> dict[str, Any]:
        """One answerable item from the row's rng."""
        failures = []
        for _ in range(ATTEMPTS):
            seed = self.rng.getrandbits(63)
            try:
                item = tasks.make_item(self.rc_task, params, self.config.level, seed)
            except ConfigError:  # knobs the task does not have: no draw helps
                raise
            except ModuleNotFoundError as exc:  # a task whose own dependency is missing: no draw helps
                raise ConfigError(f"rc/{self.rc_task}: reasoning-core needs {exc.name!r} for this task "
                                  "(pip install 'reasoning-core[gen]')") from None
            except Exception as exc:  # noqa: BLE001  (reasoning-core gives up on some draws: draw again)
                failures.append(f"reasoning-core failed: {type(exc).__name__}: {str(exc)[:200]}")
                continue
            identity = make_identity(self.rc_task, params, self.config.level, seed, item)
            problem = unanswerable(identity)
            if problem:
                failures.append(problem)
                continue
            return identity
        raise ConfigError(f"rc/{self.rc_task}: {ATTEMPTS} draws in a row gave no item with an answer the verifier "
                          f"accepts, e.g. {failures[0][:300]}")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return f"{identity['prompt'].rstrip()}{ANSWER_FORMAT}"


def make_identity(name: str, params: dict[str, Any], level: int, seed: int, item: dict[str, Any]) -> dict[str, Any]:
    """The JSON identity of a reasoning-core item: its coordinates, prompt, answer and metadata."""
    answer = item["answer"]
    if not isinstance(answer, (str, int, float, bool)) and answer is not None:
        answer = str(answer)  # the reference answers its text form; unanswerable() checks the scorer accepts it
    identity = {"task": name, "config": params, "level": level, "seed": seed, "prompt": item["prompt"],
                "answer": answer, "metadata": item["metadata"]}
    try:
        import orjson

        return orjson.loads(canonical_json(identity))  # what a row holds after JSON: the scorer sees the same
    except Exception as exc:  # noqa: BLE001
        raise ConfigError(f"rc/{name}: an item has no JSON form ({exc})") from None


def unanswerable(identity: dict[str, Any]) -> str | None:
    """Why the reference cannot answer this item, or None: only items with a verified answer are emitted."""
    if len(identity["prompt"]) > PROMPT_LIMIT:
        return f"the prompt has {len(identity['prompt'])} characters (limit {PROMPT_LIMIT})"
    answer = reference_answer(identity)
    if RCRewardCalculator.verify_score(f"<answer>{answer}</answer>", identity) < 1.0:
        return f"the stored answer {answer[:80]!r} does not score 1.0"
    return None


class TaskConfig:
    """A generator class's `Config`, made when first read: making it imports the task's module and builds a task
    (seconds for some: inflect's typeguard pass, set_operations' z3 tables), which `bc-gen --list` never needs."""

    def __get__(self, instance: Any, owner: type[RCInstructionGenerator]) -> type:
        return tasks.config_class(owner.rc_task)


@functools.cache
def generator_class(name: str) -> type[RCInstructionGenerator]:
    """The generator class of rc/<name> (its `Config` is made on first use)."""
    qualname = f"{tasks._camel(name)}InstructionGenerator"
    return type(qualname, (RCInstructionGenerator,), {
        "rc_task": name, "name": f"rc/{name}", "Config": TaskConfig(), "__module__": __name__,
        "__qualname__": qualname, "__doc__": f"rc/{name}: {tasks.description(name)}"})


def __getattr__(attr: str) -> Any:
    if attr.endswith("InstructionGenerator"):
        for name in tasks.roster():
            if f"{tasks._camel(name)}InstructionGenerator" == attr:
                return generator_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
