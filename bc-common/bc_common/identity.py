"""Check a task's identity (its ground truth) against what its verifier declares, before the verifier sees it.

A RewardCalculator declares `identity_schema` (a JSON Schema) and/or a classmethod `check_identity(identity)`
that raises ValueError or TypeError with a reason. A verifier that declares neither accepts any identity.

    validate_identity(ArithmeticRewardCalculator, {"expression": 12}, "tasks.jsonl:17")
    # InputError: tasks.jsonl:17: reward_model.ground_truth.expression: 12 is not of type 'string'
"""
from __future__ import annotations

import functools
import re
from typing import Any

from jsonschema import Draft202012Validator

from .errors import InputError, RegistryError
from .tool_runtime import simple_acceptor

FIELD = "reward_model.ground_truth"


_FIELD_REASON = re.compile(r"([A-Za-z_][A-Za-z0-9_]*): (.+)", re.DOTALL)


@functools.lru_cache(maxsize=256)
def _validator(reward_cls: type) -> tuple[Any, Draft202012Validator] | None:
    """(fast acceptor or None, validator) of the class's schema. The acceptor (the tool runtime's, for the usual
    object of typed properties) only ever says "valid"; jsonschema decides and words every rejection."""
    schema = getattr(reward_cls, "identity_schema", None)
    if schema is None:
        return None
    Draft202012Validator.check_schema(schema)  # a broken schema is the bootcamp's bug: say so at once
    return simple_acceptor(schema), Draft202012Validator(schema)


def validate_identity(reward_cls: type, identity: Any, where: str, line: int | None = None) -> None:
    """Raise InputError naming `where` (FILE or FILE:LINE, with `line` apart when given) and the field when
    `identity` does not fit `reward_cls`. A `check_identity` reason of the form `key: reason` names that key."""
    checks = _validator(reward_cls)
    if checks is not None:
        accepts, validator = checks
        if not (accepts is not None and accepts(identity)) and not validator.is_valid(identity):
            error = min(validator.iter_errors(identity), key=lambda e: (len(e.absolute_path), str(e.message)))
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            raise InputError(f"{FIELD}{path}: {error.message} ({reward_cls.__name__} cannot grade this task)",
                             source=where, line=line, field=FIELD + path)
    check = getattr(reward_cls, "check_identity", None)
    if check is not None:
        try:
            check(identity)
        except (ValueError, TypeError, KeyError, ArithmeticError) as exc:
            reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else f"{type(exc).__name__}: {exc}"
            named = _FIELD_REASON.fullmatch(reason)
            field = FIELD
            if named and isinstance(identity, dict) and named.group(1) in identity:
                field, reason = f"{FIELD}.{named.group(1)}", named.group(2)
            raise InputError(f"{field}: {reason} ({reward_cls.__name__} cannot grade this task)",
                             source=where, line=line, field=field) from None


def validate_task_identity(task: dict[str, Any], source: str, line: int | None = None) -> None:
    """`validate_identity` for a task row of a registered bootcamp (its `data_source`); a row whose bootcamp
    cannot be found is left to the caller's own lookup, which names it."""
    from .catalog import get_bootcamp
    from .environment import identity_of

    try:
        reward = get_bootcamp(task["data_source"]).reward
    except (RegistryError, KeyError, TypeError):
        return
    validate_identity(reward, identity_of(task), source, line)
