"""Hard families: each has an obvious quadratic (or worse) solution and a fast one; the hard group's large
inputs give the quadratic one more work than its time limit allows."""
from __future__ import annotations

import random
from typing import Any

from .family import Family

LARGE = 20_000


def max_subarray_sum(nums, *, smallest, min_len, skip, cap):
    values = [max(-cap, min(cap, x)) if cap else x for x in nums if not (skip and x % skip == 0)]
    if smallest:
        values = [-x for x in values]
    if len(values) < min_len:
        return None
    prefix = [0]
    for x in values:
        prefix.append(prefix[-1] + x)
    best, low = None, None
    for i in range(min_len, len(prefix)):
        low = prefix[i - min_len] if low is None else min(low, prefix[i - min_len])
        if best is None or prefix[i] - low > best:
            best = prefix[i] - low
    return -best if smallest else best


def _subarray_variant(rng: random.Random) -> dict[str, Any]:
    return {"smallest": rng.random() < 0.5, "min_len": rng.randint(1, 8), "skip": rng.choice([0, 0, 3, 4, 5, 7]),
            "cap": rng.choice([0, 0, 10, 15, 20, 25, 30, 40])}


def _subarray_spec(p: dict[str, Any]) -> str:
    skip = f"First remove every element that is a multiple of {p['skip']} (0 included). " if p["skip"] else ""
    cap = f"Then clamp every element to the range -{p['cap']}..{p['cap']}. " if p["cap"] else ""
    which = "smallest" if p["smallest"] else "largest"
    return (f"{skip}{cap}Return the {which} sum of a contiguous run of at least {p['min_len']} elements of what "
            f"is left, or None when fewer than {p['min_len']} elements are left.")


def _nums(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [[rng.randint(-50, 50) for _ in range(rng.randint(1, n))]]


def pairs_with_sum(nums, target, *, relation, modulus, min_gap, only):
    def kept(x):
        return only == "all" or (only == "odd" and x % 2 == 1) or (only == "nonnegative" and x >= 0)

    counts = {}
    total = 0
    for j, x in enumerate(nums):
        if j - min_gap >= 0:
            y = nums[j - min_gap]
            if kept(y):
                key = y % modulus if relation == "mod" else y
                counts[key] = counts.get(key, 0) + 1
        if not kept(x):
            continue
        if relation == "sum":
            total += counts.get(target - x, 0)
        elif relation == "difference":
            total += counts.get(x - target, 0)
        else:
            total += counts.get((target - x) % modulus, 0)
    return total


def _pairs_variant(rng: random.Random) -> dict[str, Any]:
    relation = rng.choice(["sum", "difference", "mod", "mod"])
    return {"relation": relation, "modulus": rng.randint(3, 12) if relation == "mod" else 1,
            "min_gap": rng.randint(1, 6), "only": rng.choice(["all", "odd", "nonnegative"])}


def _pairs_spec(p: dict[str, Any]) -> str:
    relation = {"sum": "nums[i] + nums[j] == target", "difference": "nums[j] - nums[i] == target",
                "mod": f"(nums[i] + nums[j]) % {p['modulus']} == target % {p['modulus']}"}[p["relation"]]
    only = {"all": "", "odd": " and both values odd", "nonnegative": " and both values non-negative"}[p["only"]]
    return f"Return how many pairs of positions i < j have j - i >= {p['min_gap']}, {relation}{only}."


def _pairs(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [[rng.randint(-20, 20) for _ in range(rng.randint(1, n))], rng.randint(-10, 10)]


RESIDUES = [(1, 0), (3, 1), (3, 2), (4, 1), (4, 3), (5, 1), (5, 2), (5, 3), (5, 4), (6, 1), (6, 5), (7, 1),
            (7, 2), (7, 3), (8, 1), (8, 3), (8, 5), (8, 7), (10, 1), (10, 3), (10, 7), (10, 9), (12, 1), (12, 5),
            (12, 7), (12, 11)]


def count_primes_below(n, *, low, modulus, residue, last_digit, total):
    if n < 3:
        return 0
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    for p in range(2, int(n ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, n, p)))
    chosen = [p for p in range(max(low, 2), n) if sieve[p] and p % modulus == residue and p % 10 != last_digit]
    return sum(chosen) if total else len(chosen)


def _primes_variant(rng: random.Random) -> dict[str, Any]:
    modulus, residue = rng.choice(RESIDUES)
    return {"low": rng.choice([0, 0, 10, 20, 30, 50, 100]), "modulus": modulus, "residue": residue,
            "last_digit": rng.choice([-1, -1, 1, 3, 7, 9]), "total": rng.random() < 0.5}


def _primes_spec(p: dict[str, Any]) -> str:
    where = f"at least {p['low']} and " if p["low"] else ""
    mod = f", with p % {p['modulus']} == {p['residue']}" if p["modulus"] > 1 else ""
    digit = f", whose last decimal digit is not {p['last_digit']}" if p["last_digit"] >= 0 else ""
    report = "their sum (0 when there are none)" if p["total"] else "how many there are"
    return f"Consider the prime numbers p that are {where}smaller than n{mod}{digit}. Return {report}."


def _below(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [rng.randint(0, 50 * n)]


BRACKETS = ["()", "[]", "{}", "<>"]  # a kind may also be drawn the other way round: ")(" opens with ')'


def longest_valid_parentheses(s, *, pairs, report):
    closing = {pair[1]: pair[0] for pair in pairs}
    best, count, first = 0, 0, -1
    stack = [(-1, "")]
    for i, ch in enumerate(s):
        if ch in closing and stack[-1][1] == closing[ch]:
            stack.pop()
            length = i - stack[-1][0]
            if length > best:
                best, count, first = length, 1, stack[-1][0] + 1
            elif length == best:
                count += 1
        elif ch in closing or ch not in "".join(pairs):
            stack = [(i, "")]
        else:
            stack.append((i, ch))
    if report == "start":
        return first
    if report == "end":
        return first + best if best else -1
    if report == "count":
        return count if best else 0
    return best


def _parens_variant(rng: random.Random) -> dict[str, Any]:
    pairs = [pair if rng.random() < 0.6 else pair[::-1] for pair in rng.sample(BRACKETS, rng.randint(1, 2))]
    return {"pairs": sorted(pairs), "report": rng.choice(["length", "start", "end", "count"])}


def _parens_spec(p: dict[str, Any]) -> str:
    kinds = " and ".join(f"{pair[0]!r} opening / {pair[1]!r} closing" for pair in p["pairs"])
    report = {"length": "the length of the longest balanced substring (0 when there is none)",
              "start": "the start index of the leftmost longest balanced substring (-1 when there is none)",
              "end": "the index just after the end of the leftmost longest balanced substring (-1 when there is "
                     "none)",
              "count": "how many balanced substrings have the longest length (0 when there is none)"}[p["report"]]
    return (f"The string holds brackets of the kinds {kinds} and possibly other characters. A substring is "
            "balanced when it is not empty, holds only these brackets, and every bracket is closed by one of its "
            f"own kind in proper nesting order. Return {report}.")


def _parens(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    chars = "".join(pair[0] * 2 + pair[1] for pair in p["pairs"]) + ("." if rng.random() < 0.3 else "")
    return ["".join(rng.choice(chars) for _ in range(rng.randint(0, 2 * n)))]


def _parens_large(rng: random.Random, p: dict[str, Any]) -> list[Any]:
    chars = "".join(pair[0] * 2 + pair[1] for pair in p["pairs"])
    return ["".join(rng.choice(chars) for _ in range(LARGE))]


def lis_length(nums, *, strict, decreasing, modulus, positions):
    import bisect

    values = [x % modulus if modulus else x for i, x in enumerate(nums)
              if positions == "all" or (i % 2 == 0) == (positions == "even")]
    if decreasing:
        values = [-x for x in values]
    tails = []
    for x in values:
        k = bisect.bisect_left(tails, x) if strict else bisect.bisect_right(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


def _lis_variant(rng: random.Random) -> dict[str, Any]:
    return {"strict": rng.random() < 0.5, "decreasing": rng.random() < 0.5,
            "modulus": rng.choice([0, 0] + list(range(5, 31))), "positions": rng.choice(["all", "even", "odd"])}


def _lis_spec(p: dict[str, Any]) -> str:
    positions = {"all": "", "even": "Keep only the elements at even indices (0, 2, 4, ...). ",
                 "odd": "Keep only the elements at odd indices (1, 3, 5, ...). "}[p["positions"]]
    mod = f"Replace every element x by x % {p['modulus']}. " if p["modulus"] else ""
    order = ("strictly " if p["strict"] else "non-strictly ") + ("decreasing" if p["decreasing"] else "increasing")
    return (f"{positions}{mod}Return the length of the longest {order} subsequence of the result (not necessarily "
            "contiguous; 0 for an empty list).")


def _lis(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return [[rng.randint(0, 3 * n) for _ in range(rng.randint(0, n))]]


def max_overlap(intervals, *, closed, min_len, extend, report):
    events = []
    for start, end in intervals:
        if end - start < min_len:
            continue
        start, end = start - extend, end + extend
        events.append((start, 0))
        events.append((end + 1 if closed else end, -1))
    best = current = 0
    where = None
    for point, kind in sorted(events):
        current += 1 if kind == 0 else -1
        if current > best:
            best, where = current, point
    if report == "point":
        return where
    return best


def _overlap_variant(rng: random.Random) -> dict[str, Any]:
    return {"closed": rng.random() < 0.5, "min_len": rng.randint(0, 9), "extend": rng.randint(0, 5),
            "report": rng.choice(["count", "point"])}


def _overlap_spec(p: dict[str, Any]) -> str:
    kind = ("closed: [start, end] covers start through end, both included" if p["closed"]
            else "half-open: [start, end] covers start up to but not including end")
    skip = f"Ignore the intervals with end - start < {p['min_len']}. " if p["min_len"] else ""
    extend = f"Widen every remaining interval by {p['extend']} on both sides. " if p["extend"] else ""
    report = ("the largest number of intervals covering one integer point (0 when there are none)"
              if p["report"] == "count" else
              "the smallest integer point covered by the largest number of intervals (None when there are none)")
    return f"Intervals of integers are {kind}. {skip}{extend}Return {report}."


def _overlap(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    out = []
    for _ in range(rng.randint(0, n)):
        a = rng.randint(0, 4 * n)
        out.append([a, a + rng.randint(0, 2 * n)])
    return [out]


def grid_shortest_path(grid, *, diagonal, corner, wall, unreachable):
    from collections import deque

    rows, cols = len(grid), len(grid[0])
    start = {"top-left": (0, 0), "top-right": (0, cols - 1), "bottom-left": (rows - 1, 0),
             "bottom-right": (rows - 1, cols - 1)}[corner]
    goal = (rows - 1 - start[0], cols - 1 - start[1])
    if grid[start[0]][start[1]] == wall or grid[goal[0]][goal[1]] == wall:
        return unreachable
    moves = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        moves += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return dist[(r, c)]
        for dr, dc in moves:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != wall and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                queue.append((nr, nc))
    return unreachable


def _maze_variant(rng: random.Random) -> dict[str, Any]:
    return {"diagonal": rng.random() < 0.5, "corner": rng.choice(["top-left", "top-right", "bottom-left",
                                                                  "bottom-right"]),
            "wall": rng.choice("#X@%"), "unreachable": rng.randint(-9, -1)}


def _maze_spec(p: dict[str, Any]) -> str:
    moves = "to any of the 8 neighbouring cells (diagonals too)" if p["diagonal"] else "up, down, left or right"
    goal = {"top-left": "bottom-right", "top-right": "bottom-left", "bottom-left": "top-right",
            "bottom-right": "top-left"}[p["corner"]]
    return (f"A grid of '.' (open) and {p['wall']!r} (wall) cells. Moving {moves} between open cells, return the "
            f"fewest moves from the {p['corner']} cell to the {goal} cell, or {p['unreachable']} when it cannot be "
            "reached (or either cell is a wall).")


def _maze(rng: random.Random, n: int, p: dict[str, Any], density: float = 0.22) -> list[Any]:
    rows, cols = rng.randint(2, max(3, n // 2)), rng.randint(2, max(3, n // 2))
    cells = [[(p["wall"] if rng.random() < density else ".") for _ in range(cols)] for _ in range(rows)]
    for r, c in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)):
        cells[r][c] = "."
    return [["".join(row) for row in cells]]


def edit_distance(a, b, *, insert, delete, substitute, swap):
    cost = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i == 0 or j == 0:
                cost[i][j] = j * insert + i * delete
                continue
            best = min(cost[i - 1][j] + delete, cost[i][j - 1] + insert,
                       cost[i - 1][j - 1] + (substitute if a[i - 1] != b[j - 1] else 0))
            if swap and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, cost[i - 2][j - 2] + swap)
            cost[i][j] = best
    return cost[len(a)][len(b)]


def _edit_variant(rng: random.Random) -> dict[str, Any]:
    return {"insert": rng.randint(1, 4), "delete": rng.randint(1, 4), "substitute": rng.randint(1, 6),
            "swap": rng.choice([0, 0, 1, 2, 3])}


def _edit_spec(p: dict[str, Any]) -> str:
    swap = (f", and swapping two adjacent characters costs {p['swap']} (a swapped pair is not edited again)"
            if p["swap"] else "")
    return (f"Return the cheapest cost of turning a into b where inserting a character costs {p['insert']}, "
            f"deleting one costs {p['delete']}, and replacing one by another costs {p['substitute']}{swap}.")


def _words(rng: random.Random, n: int, p: dict[str, Any]) -> list[Any]:
    return ["".join(rng.choice("abc") for _ in range(rng.randint(0, n))),
            "".join(rng.choice("abc") for _ in range(rng.randint(0, n)))]


HARD = [
    Family("max_subarray_sum", max_subarray_sum, "nums: list[int]", _subarray_spec, _subarray_variant, _nums,
           lambda p: [[[-5]], [[-3, -1, -2]], [[]]],
           large=lambda rng, p: [[rng.randint(-100, 100) for _ in range(LARGE)]]),
    Family("pairs_with_sum", pairs_with_sum, "nums: list[int], target: int", _pairs_spec, _pairs_variant, _pairs,
           lambda p: [[[], 0], [[2, 2, 2, 2, 2, 2, 2, 2], 4]],
           large=lambda rng, p: [[rng.randint(-1000, 1000) for _ in range(LARGE)], rng.randint(-50, 50)]),
    Family("count_primes_below", count_primes_below, "n: int", _primes_spec, _primes_variant, _below,
           lambda p: [[0], [2], [3], [200]], large=lambda rng, p: [rng.randint(800_000, 1_000_000)]),
    Family("longest_valid_parentheses", longest_valid_parentheses, "s: str", _parens_spec, _parens_variant,
           _parens, lambda p: [[""], [p["pairs"][0][::-1]], [p["pairs"][0] * 3]], large=_parens_large),
    Family("lis_length", lis_length, "nums: list[int]", _lis_spec, _lis_variant, _lis,
           lambda p: [[[]], [[5, 5, 5]], [[1, 2, 3, 4, 5, 6]]],
           large=lambda rng, p: [[rng.randint(0, 10 ** 6) for _ in range(LARGE)]]),
    Family("max_overlap", max_overlap, "intervals: list[list[int]]", _overlap_spec, _overlap_variant, _overlap,
           lambda p: [[[]], [[[1, 2], [2, 3]]], [[[0, 20], [5, 30], [29, 40]]]],
           large=lambda rng, p: [[[a, a + rng.randint(1, 5000)] for a in (rng.randint(0, 10 ** 5)
                                                                           for _ in range(LARGE))]]),
    Family("grid_shortest_path", grid_shortest_path, "grid: list[str]", _maze_spec, _maze_variant, _maze,
           lambda p: [[["."]], [[".", "."]]], large=lambda rng, p: _maze(rng, 400, p, 0.2)),
    Family("edit_distance", edit_distance, "a: str, b: str", _edit_spec, _edit_variant, _words,
           lambda p: [["", ""], ["abc", ""], ["ab", "ba"]], large=lambda rng, p: _words(rng, 400, p)),
]
