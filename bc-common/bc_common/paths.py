"""Refuse a run that would write over its own files: an output that is an input (`bc-eval X -o X`), a summary
over the task file, two outputs that are one file, an input inside the run folder being written.

Paths are compared resolved (symlinks followed, even to a file that does not exist yet) and by file identity
(st_dev, st_ino), so a hard link, a symlink, `< X` on stdin or `> X` on stdout is caught as well as the same
name. Each tool calls `refuse_collisions` once, with every file it reads and every file it writes:

    refuse_collisions(reads=[("TASKS", "tasks.jsonl")],
                      writes=[("-o", "runs.jsonl"), ("--summary", "tasks.jsonl")])   # UsageError naming both
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

_STD = "-"
Named = tuple[str, "str | Path | None"]  # (the flag or argument that names it, the path); None: not given


def _identity(path: str, *, stream: int = 0) -> tuple[int, int] | None:
    """(st_dev, st_ino) of a regular file or folder ('-' = the standard stream `stream` when it is a file)."""
    try:
        st = os.fstat(stream) if path == _STD else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    if path == _STD and not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) else None


def _resolved(path: str) -> Path | None:
    if path == _STD:
        return None
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None


@dataclass(frozen=True)
class _Entry:
    flag: str
    path: str
    resolved: Path | None
    identity: tuple[int, int] | None

    @classmethod
    def of(cls, flag: str, path: str | Path, stream: int) -> _Entry:
        text = str(path)
        return cls(flag, text, _resolved(text), _identity(text, stream=stream))

    def shown(self, stream: str) -> str:
        return f"<{stream}>" if self.path == _STD else self.path

    def same(self, other: _Entry) -> bool:
        if self.resolved is not None and self.resolved == other.resolved:
            return True
        return self.identity is not None and self.identity == other.identity


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when `a` and `b` name the same file: equal resolved paths, or the same (device, inode)."""
    return _Entry.of("", a, 0).same(_Entry.of("", b, 0))


def _entries(named: Iterable[Named], stream: int) -> list[_Entry]:
    return [_Entry.of(flag, path, stream) for flag, path in named if path is not None and str(path) != ""]


def refuse_collisions(reads: Iterable[Named] = (), writes: Iterable[Named] = (), folders: Iterable[Named] = ()) -> None:
    """Raise UsageError (exit 2), before anything is written, when a file in `writes` is one of `reads` or
    another of `writes`, or when anything read or written lies inside one of `folders` (folders the tool fills
    and may clear: bc-train's run directory).

    Each item is (flag, path): the flag names it in the message. '-' in `reads` is stdin and in `writes` stdout:
    they count when redirected from or to a regular file (`bc-filter < X >> X`)."""
    read = _entries(reads, 0)
    written = _entries(writes, 1)
    for i, out in enumerate(written):
        for src in read:
            if out.same(src):
                raise UsageError(f"{out.shown('stdout')}: {out.flag} names a file that is also an input "
                                 f"({_name(src, 'stdin')}){_how(out, src)}; writing it would destroy the input: "
                                 "write it elsewhere")
        for other in written[i + 1:]:
            if out.same(other):
                raise UsageError(f"{other.shown('stdout')}: {other.flag} names the same file as {out.flag} "
                                 f"{out.shown('stdout')}{_how(other, out)}; one would overwrite the other: give "
                                 "them different paths")
    for flag, folder in folders:
        if folder is not None:
            _refuse_inside(flag, str(folder), read, written)


def _name(entry: _Entry, stream: str) -> str:
    return entry.shown(stream) if entry.flag in ("", entry.path) else f"{entry.flag} {entry.shown(stream)}"


def _how(a: _Entry, b: _Entry) -> str:
    """' (a symlink)' / ' (a hard link)' when the two names differ but lead to one file."""
    if a.path == b.path or _STD in (a.path, b.path):
        return ""
    if a.resolved is not None and a.resolved == b.resolved:
        plain = Path(a.path).absolute() == a.resolved and Path(b.path).absolute() == b.resolved
        return "" if plain else " (through a symlink)"
    return " (a hard link)"


def _refuse_inside(flag: str, folder: str, read: list[_Entry], written: list[_Entry]) -> None:
    root = _resolved(folder)
    if root is None:
        return
    inside: set[tuple[int, int]] | None = None
    for entry in [*read, *written]:
        hit = entry.resolved is not None and (entry.resolved == root or root in entry.resolved.parents)
        if not hit and root.is_dir() and entry.identity is not None:
            if inside is None:
                inside = _identities_under(root)
            hit = entry.identity in inside
        if hit:
            what = "an input" if entry in read else f"the output of {entry.flag}"
            raise UsageError(f"{folder}: {flag} names a folder holding {what} ({_name(entry, 'stdin')}); writing "
                             "the run there would overwrite it: choose another folder")


def refuse_output_among_inputs(output: str | Path | None, inputs: Iterable[str | Path], *,
                               flag: str = "-o") -> None:
    """Raise UsageError (exit 2) when the output file is one of the inputs. stdout ('-') never is; stdin ('-',
    or no inputs at all) is when it is redirected from the output file."""
    if output is None or str(output) == _STD:
        return
    names = [str(p) for p in inputs] or [_STD]
    refuse_collisions(reads=[("", name) for name in names], writes=[(flag, output)])


def refuse_inputs_inside_dir(out_dir: str | Path, inputs: Iterable[str | Path], *, flag: str = "-o") -> None:
    """Raise UsageError when an input lies inside the output folder (or is a link to a file in it): the run
    would overwrite or clear it."""
    refuse_collisions(reads=[("", str(p)) for p in inputs], folders=[(flag, out_dir)])


def _identities_under(root: Path, limit: int = 10_000) -> set[tuple[int, int]]:
    """(device, inode) of the regular files under `root` (at most `limit` of them: a run folder is small)."""
    found: set[tuple[int, int]] = set()
    for folder, _, files in os.walk(root):
        for name in files:
            ident = _identity(os.path.join(folder, name))
            if ident is not None:
                found.add(ident)
            if len(found) >= limit:
                return found
    return found


def stdin_or(paths: Iterable[str | Path]) -> list[str]:
    """The input paths a tool reads: the given ones, or stdin ('-') when none are given."""
    return [str(p) for p in paths] or [_STD]


__all__ = ["refuse_collisions", "refuse_inputs_inside_dir", "refuse_output_among_inputs", "same_file", "stdin_or"]
