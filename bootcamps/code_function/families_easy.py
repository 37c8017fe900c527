"""Easy families: strings, lists, small parsing and simulation. Each reference is self-contained (its source, with
the task's parameters bound, is what the reference policy writes) and each input generator draws from the task's
own random stream."""
from __future__ import annotations

import random
import string
from typing import Any

from .family import Family

SEPARATORS = [",", ";", "|", "-", "/", ".", ":", "+"]


def run_length_encode(s, *, sep, count_first, min_run, max_run):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i] and j - i < max_run:
            j += 1
        run = j - i
        if run < min_run:
            out.append(s[i] * run)
        else:
            out.append(str(run) + s[i] if count_first else s[i] + str(run))
        i = j
    return sep.join(out)


def _rle_variant(rng: random.Random) -> dict[str, Any]:
    return {"sep": rng.choice(SEPARATORS), "count_first": rng.random() < 0.5, "min_run": rng.randint(1, 3),
            "max_run": rng.randint(3, 9)}


def _rle_spec(p: dict[str, Any]) -> str:
    form = "its length followed by the character (\"aaa\" -> \"3a\")" if p["count_first"] else \
        "the character followed by its length (\"aaa\" -> \"a3\")"
    short = (f" A run shorter than {p['min_run']} characters is written out as it is (\"b\" stays \"b\")."
             if p["min_run"] > 1 else "")
    return (f"Encode the string as runs of one character, each at most {p['max_run']} long (a longer stretch of "
            f"one character is cut into runs of {p['max_run']} and a last shorter run). Each run becomes {form}."
            f"{short} The encoded runs are joined with {p['sep']!r}. The empty string encodes to \"\".")


def _runs(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return ["".join(rng.choice("abc") * rng.randint(1, 11) for _ in range(rng.randint(1, n)))]


def longest_common_prefix(words, *, suffix, min_len, empty):
    words = [w[::-1] if suffix else w for w in words if len(w) >= min_len]
    if not words:
        return empty
    prefix = words[0]
    for word in words[1:]:
        k = 0
        while k < min(len(prefix), len(word)) and prefix[k] == word[k]:
            k += 1
        prefix = prefix[:k]
    if not prefix:
        return empty
    return prefix[::-1] if suffix else prefix


def _lcp_variant(rng: random.Random) -> dict[str, Any]:
    return {"suffix": rng.random() < 0.5, "min_len": rng.randint(0, 6),
            "empty": rng.choice(["", "-", "?", "none", "<none>", "*", "nil", "_", "0", "empty", "n/a", "!", "#",
                                 "null"])}


def _lcp_spec(p: dict[str, Any]) -> str:
    end = "ends with (the longest common suffix)" if p["suffix"] else "starts with (the longest common prefix)"
    skip = f"Ignore the words shorter than {p['min_len']} characters. " if p["min_len"] else ""
    return (f"{skip}Return the longest string that every remaining word {end}. When there are no words, or they "
            f"share nothing, return {p['empty']!r}.")


def _affixed(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    stem = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 4)))
    tail = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 4)))
    words = []
    for _ in range(rng.randint(1, n)):
        if rng.random() < 0.2:
            words.append("".join(rng.choice("abcd") for _ in range(rng.randint(0, 3))))  # short ones
        else:
            words.append(stem + "".join(rng.choice("abcd") for _ in range(rng.randint(0, 3))) + tail)
    return [words]


def caesar_shift(text, k, *, direction, digits, step, other):
    out = []
    shift = k * direction
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + shift) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + shift) % 26 + 65))
        elif digits and "0" <= ch <= "9":
            out.append(chr((ord(ch) - 48 + shift) % 10 + 48))
        else:
            if other != "drop":
                out.append(ch if other == "keep" else other)
            continue
        shift += step * direction
    return "".join(out)


def _caesar_variant(rng: random.Random) -> dict[str, Any]:
    return {"direction": rng.choice([1, -1]), "digits": rng.random() < 0.5, "step": rng.randint(0, 12),
            "other": rng.choice(["keep", "drop", "_", "*", "#", "~"])}


def _caesar_spec(p: dict[str, Any]) -> str:
    way = "forward (a -> b for k = 1)" if p["direction"] == 1 else "backward (b -> a for k = 1)"
    digits = ("Digits 0-9 are shifted the same way within 0-9 (9 -> 0 forward). " if p["digits"] else
              "Digits count as other characters. ")
    step = (f"After each shifted character the shift grows by {p['step']} (the second shifted character moves "
            f"k + {p['step']} places, the third k + {2 * p['step']}, ...). " if p["step"] else "")
    other = {"keep": "kept as they are", "drop": "removed"}.get(p["other"], f"replaced by {p['other']!r}")
    return (f"Shift every ASCII letter k places {way} along the alphabet, wrapping around and keeping its case (k "
            f"may be negative or larger than 26). {digits}{step}Every other character is {other}.")


def _caesar(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    text = "".join(rng.choice(string.ascii_letters + "0123456789 ,.!") for _ in range(rng.randint(1, 3 * n)))
    return [text, rng.randint(-60, 60)]


def rotate_list(items, k, *, direction, chunk, fill):
    def move(part):
        if not part:
            return []
        steps = k * direction
        if fill is None:
            steps %= len(part)
            return part[-steps:] + part[:-steps] if steps else list(part)
        if abs(steps) >= len(part):
            return [fill] * len(part)
        if steps >= 0:
            return [fill] * steps + part[:len(part) - steps]
        return part[-steps:] + [fill] * (-steps)

    size = chunk or max(len(items), 1)
    out = []
    for start in range(0, len(items), size):
        out += move(items[start:start + size])
    return out


def _rotate_variant(rng: random.Random) -> dict[str, Any]:
    return {"direction": rng.choice([1, -1]), "chunk": rng.choice([0, 0, 2, 3, 4, 5, 6, 7]),
            "fill": None if rng.random() < 0.3 else rng.randint(-9, 9)}


def _rotate_spec(p: dict[str, Any]) -> str:
    way = "right (towards the end)" if p["direction"] == 1 else "left (towards the start)"
    how = ("rotate it cyclically" if p["fill"] is None else
           f"shift it: items pushed past the end fall off and the freed places hold {p['fill']}")
    where = (f"Cut the list into consecutive chunks of {p['chunk']} items (the last chunk may be shorter) and "
             "treat each chunk on its own: " if p["chunk"] else "Take the whole list: ")
    return (f"{where}{how} by k places to the {way}; a negative k moves the other way, and k may be larger than a "
            "chunk. Return the new list (an empty list stays empty). Do not change the argument.")


def _rotate(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [[rng.randint(-9, 99) for _ in range(rng.randint(1, n + 4))], rng.randint(-9, 12)]


def to_base(n, base, *, upper, width, group, sep):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if upper:
        digits = digits.upper()
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    while len(out) < max(width, 1):
        out.append("0")
    if group:
        out = [d + (sep if i and i % group == 0 else "") for i, d in enumerate(out)]
    return sign + "".join(reversed(out))


def _base_variant(rng: random.Random) -> dict[str, Any]:
    return {"upper": rng.random() < 0.5, "width": rng.randint(0, 12), "group": rng.choice([0, 0, 2, 3, 4, 5]),
            "sep": rng.choice(["_", " ", "'", "."])}


def _base_spec(p: dict[str, Any]) -> str:
    case = "uppercase A-Z" if p["upper"] else "lowercase a-z"
    width = f"Pad with leading zeros to at least {p['width']} digits. " if p["width"] > 1 else ""
    group = (f"Then separate the digits into groups of {p['group']} counted from the right with {p['sep']!r} "
             f"(12345 in base 10 -> \"12{p['sep']}345\" for groups of 3). " if p["group"] else "")
    return (f"Write the integer n in the given base (2..36) with the digits 0-9 then {case}, and \"0\" for zero. "
            f"{width}{group}A negative number gets a leading '-' before everything else.")


def _base(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [rng.randint(-10 ** 6, 10 ** 6), rng.choice([2, 3, 5, 7, 8, 12, 16, 20, 36])]


def parse_duration(text, *, day_hours, week_days, unit, bare):
    units = {"w": week_days * day_hours * 3600, "d": day_hours * 3600, "h": 3600, "m": 60, "s": 1}
    total, number = 0, ""
    for ch in text:
        if ch.isdigit():
            number += ch
        elif ch in units:
            total += int(number or 0) * units[ch]
            number = ""
    if number:
        total += int(number) * bare
    return total // unit


def _duration_variant(rng: random.Random) -> dict[str, Any]:
    return {"day_hours": rng.randint(6, 24), "week_days": rng.randint(4, 7), "unit": rng.choice([1, 60, 3600]),
            "bare": rng.choice([1, 60])}


def _duration_spec(p: dict[str, Any]) -> str:
    unit = {1: "seconds", 60: "whole minutes (rounded down)", 3600: "whole hours (rounded down)"}[p["unit"]]
    bare = "seconds" if p["bare"] == 1 else "minutes"
    return (f"Parse a duration such as \"1w2d3h30m15s\" (units w, d, h, m, s in any order, each optional). On this "
            f"project a day (d) is {p['day_hours']} hours and a week (w) is {p['week_days']} days. A number at the "
            f"very end without a unit counts as {bare}. Return the total in {unit}.")


def _duration(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    parts = [f"{rng.randint(0, 99)}{u}" for u in "wdhms" if rng.random() < 0.5] or [f"{rng.randint(1, 9)}h"]
    rng.shuffle(parts)
    if rng.random() < 0.3:
        parts.append(str(rng.randint(1, 300)))
    return ["".join(parts)]


def robot_walk(commands, *, heading, forward, backward, report):
    dx, dy = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}[heading]
    x, y = 0, 0
    for c in commands:
        if c == "L":
            dx, dy = -dy, dx
        elif c == "R":
            dx, dy = dy, -dx
        elif c == "F":
            x, y = x + forward * dx, y + forward * dy
        elif c == "B":
            x, y = x - backward * dx, y - backward * dy
    if report == "distance":
        return abs(x) + abs(y)
    if report == "pose":
        return [x, y, {(0, 1): "N", (1, 0): "E", (0, -1): "S", (-1, 0): "W"}[(dx, dy)]]
    return [x, y]


def _walk_variant(rng: random.Random) -> dict[str, Any]:
    return {"heading": rng.choice("NESW"), "forward": rng.randint(1, 5), "backward": rng.randint(1, 5),
            "report": rng.choice(["position", "distance", "pose"])}


def _walk_spec(p: dict[str, Any]) -> str:
    facing = {"N": "north (+y)", "E": "east (+x)", "S": "south (-y)", "W": "west (-x)"}[p["heading"]]
    report = {"position": "the final position [x, y]",
              "distance": "the Manhattan distance |x| + |y| of the final position from the start",
              "pose": "[x, y, facing] with facing one of \"N\", \"E\", \"S\", \"W\""}[p["report"]]
    return (f"A robot starts at (0, 0) facing {facing}. 'F' moves {p['forward']} step(s) forward, 'B' moves "
            f"{p['backward']} step(s) backward (without turning), 'L' and 'R' turn 90 degrees left or right; other "
            f"characters are ignored. Return {report}.")


def _walk(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return ["".join(rng.choice("FFFLRBx") for _ in range(rng.randint(1, 4 * n)))]


EASY = [
    Family("run_length_encode", run_length_encode, "s: str", _rle_spec, _rle_variant, _runs,
           lambda p: [[""], ["z"], ["q" * 20]]),
    Family("longest_common_prefix", longest_common_prefix, "words: list[str]", _lcp_spec, _lcp_variant, _affixed,
           lambda p: [[[]], [["same", "same"]], [["", "abc"]]]),
    Family("caesar_shift", caesar_shift, "text: str, k: int", _caesar_spec, _caesar_variant, _caesar,
           lambda p: [["", 5], ["Zz9 a", 27]]),
    Family("rotate_list", rotate_list, "items: list[int], k: int", _rotate_spec, _rotate_variant, _rotate,
           lambda p: [[[], 3], [[1], -7], [[1, 2, 3, 4, 5, 6, 7], 2]]),
    Family("to_base", to_base, "n: int, base: int", _base_spec, _base_variant, _base,
           lambda p: [[0, 2], [-35, 36], [123456789, 10]]),
    Family("parse_duration", parse_duration, "text: str", _duration_spec, _duration_variant, _duration,
           lambda p: [["0s"], ["100m"], ["1w1d1h1m1s"], ["90"]]),
    Family("robot_walk", robot_walk, "commands: str", _walk_spec, _walk_variant, _walk,
           lambda p: [[""], ["LLLL"], ["FFRFFB"]]),
]
