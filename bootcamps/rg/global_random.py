"""Python's global `random` around a reasoning-gym item, without saving and restoring it when the item never draws.

reasoning-gym makes most items from their own `Random(seed + idx)`; a few helpers draw from the module-level
`random` instead. The adapter seeds that stream from the item's coordinates while the item is made and puts the
caller's state back afterwards (`random.getstate()` + `seed` + `setstate()`: 40-80 µs, more than many items cost).

`made_with_seeded_global(make, seed)` returns what `make()` returns under that protocol, for less:

1. it reads the Mersenne Twister's raw state (the index and 624 words) of the module's generator, a 2.5 kB copy;
2. it calls `make()` without seeding anything;
3. if the raw state and the cached Gaussian draw are unchanged, `make()` drew nothing from the global stream, so the
   seeded run would have made the same item (nothing else of the global state can steer it: reasoning-gym never
   reads `getstate()`) and the caller's state is untouched: done;
4. else the caller's state is put back from the copy (`setstate`), and the item made again the old way. The caller
   learns, through `drew`, which items draw, so it can go the old way first for them next time.

The raw read uses the layout of CPython's `_random.Random` (`int index; uint32_t state[624]`), found and checked
when this module is imported against `getstate()`; where it does not match, every item goes the old way.
"""
from __future__ import annotations

import ctypes
import random
import struct
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_WORDS = 624  # the Mersenne Twister's state words
_FORMAT = f"=i{_WORDS}I"  # the C struct after the object header: int index; uint32_t state[624]
_SIZE = struct.calcsize(_FORMAT)


def _raw_offset() -> int | None:
    """Where the index and state words sit in a `random.Random` object, checked on two generators and after draws;
    None where the layout is not the one expected (another interpreter or version)."""
    try:
        probe = random.Random(20260)
        probe.random()
        raw = ctypes.string_at(id(probe), type(probe).__basicsize__)  # the object's own bytes
        offset = raw.find(_packed(probe.getstate()))
        if offset < 0:
            return None
        for seed, draws in ((1, 0), (2**70 + 3, 700), (5, 624)):
            other = random.Random(seed)
            for _ in range(draws):
                other.getrandbits(32)
            if ctypes.string_at(id(other) + offset, _SIZE) != _packed(other.getstate()):
                return None
        return offset
    except Exception:  # noqa: BLE001  (no raw view: everything takes the old way)
        return None


def _packed(state: tuple[Any, ...]) -> bytes:
    words = state[1]
    return struct.pack(_FORMAT, words[-1], *words[:-1])


def _unpacked(raw: bytes, gauss_next: Any) -> tuple[Any, ...]:
    """The `getstate()` tuple of a raw copy (what `setstate` takes)."""
    index, *words = struct.unpack(_FORMAT, raw)
    return (random.Random.VERSION, tuple(words) + (index,), gauss_next)


_OFFSET = _raw_offset()


def seeded(make: Callable[[], T], seed: int) -> T:
    """The old way: `make()` under the global stream seeded with `seed`, the caller's state put back after."""
    state = random.getstate()
    random.seed(seed)
    try:
        return make()
    finally:
        random.setstate(state)


def made_with_seeded_global(make: Callable[[], T], seed: int, before_redo: Callable[[], None],
                            drew: Callable[[], None]) -> T:
    """`seeded(make, seed)`'s result, skipping the seeding and restoring when `make` draws nothing from the global
    stream. When it draws, `before_redo()` runs (forget what the unseeded call built), then `drew()`, and the item
    is made the old way."""
    inst = getattr(random, "_inst", None)
    if _OFFSET is None or inst is None or getattr(random.seed, "__self__", None) is not inst:
        return seeded(make, seed)
    view = _view(inst)
    raw = view.raw
    gauss_next = inst.gauss_next
    try:
        made = make()
    except BaseException:
        if view.raw == raw and inst.gauss_next is gauss_next:
            raise  # the seeded call would have failed the same way
        made = _REDO
    if made is not _REDO and view.raw == raw and inst.gauss_next is gauss_next:
        return made
    random.setstate(_unpacked(raw, gauss_next))  # the caller's stream as it was
    before_redo()
    drew()
    return seeded(make, seed)


def _view(inst: random.Random) -> Any:
    """The raw state of `inst` as a ctypes array over its memory (`.raw` copies it: cheaper than a foreign call),
    made once per generator object (the module's lives as long as the process)."""
    global _VIEWED
    if _VIEWED is None or _VIEWED[0] is not inst:
        _VIEWED = (inst, (ctypes.c_char * _SIZE).from_address(id(inst) + _OFFSET))
    return _VIEWED[1]


_VIEWED: tuple[random.Random, Any] | None = None  # holds the generator too: its address stays its own
_REDO: Any = object()
