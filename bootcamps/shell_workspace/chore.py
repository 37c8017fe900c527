"""What a chore is (a task on the workspace: its text, how its parameters are drawn from the generated tree, the
state it should leave, the reference script) and how a final state is compared with the expected one."""
from __future__ import annotations

import configparser
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Files = dict[str, str]  # relative path -> text
State = dict[str, "str | None"]  # a workspace read back: None for what is not a regular file (a symlink)


@dataclass(frozen=True)
class Chore:
    """One kind of task. `draw` returns the task's parameters for a tree, or None when the tree has no
    non-trivial instance of the chore (the generator draws another tree); `apply` is the state the task asks for
    (computed here, in Python: the verifier's truth); `script` is the reference's POSIX sh script."""

    key: str
    level: str
    text: str
    draw: Callable[[random.Random, Files], dict[str, Any] | None]
    apply: Callable[[Files, dict[str, Any]], Files]
    script: Callable[[dict[str, Any]], str]
    # how a file the task writes (new or changed) is compared: "exact", "lines" (trailing blanks ignored),
    # "unordered" (lines in any order) or "ini" (parsed: same sections, keys and values); untouched files: exact
    written: str = "exact"

    def modes(self, before: Files, after: Files) -> dict[str, str]:
        """{path: mode} of the files the task writes (`before` is the generated tree, `after` the expected one)."""
        return {path: self.written for path, text in after.items() if before.get(path) != text}


def same_state(got: State, want: Files, modes: dict[str, str]) -> bool:
    """Whether the workspace read back (`got`) is the expected state: the same files, each with the same content
    (compared by its mode). A symlink or other non-file anywhere fails."""
    if set(got) != set(want):
        return False
    for path, text in want.items():
        found = got[path]
        if found is None or not _same(found, text, modes.get(path, "exact")):
            return False
    return True


def _same(found: str, text: str, mode: str) -> bool:
    if mode == "exact":
        return found == text
    if mode == "ini":
        return _ini(found) is not None and _ini(found) == _ini(text)
    lines, expected = _lines(found), _lines(text)
    return sorted(lines) == sorted(expected) if mode == "unordered" else lines == expected


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _ini(text: str) -> dict[str, dict[str, str]] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except (configparser.Error, ValueError):
        return None
    return {name: dict(parser[name]) for name in parser.sections()}
