"""An exact, complete 24-game solver over fractions (+ - × ÷, every number once, any bracketing).

Meet in the middle: the values reachable from every small subset of the numbers are tabulated once; a target
for a larger subset is split into (part, rest), and for each reachable value of the part the value the rest
must reach is computed and looked up. Its expression is a witness the verifier itself accepts.
"""
from __future__ import annotations

from fractions import Fraction

Value = int | Fraction  # ints stay ints (fast) until a division leaves a remainder
Tree = int | tuple  # a number, or (op, left, right); the text is rendered only for the solution
SMALL = 3  # subsets up to this size are tabulated in full


def quotient(a: Value, b: Value) -> Value:
    if a.__class__ is int and b.__class__ is int:
        return a // b if a % b == 0 else Fraction(a, b)
    q = Fraction(a) / b
    return q.numerator if q.denominator == 1 else q


def _combine(a: Value, ta: Tree, b: Value, tb: Tree):
    """Every value of one operation on a and b (both orders), with its tree."""
    yield a + b, ("+", ta, tb)
    yield a * b, ("*", ta, tb)
    yield a - b, ("-", ta, tb)
    yield b - a, ("-", tb, ta)
    if b != 0:
        yield quotient(a, b), ("/", ta, tb)
    if a != 0:
        yield quotient(b, a), ("/", tb, ta)


def _needs(x: Value, tx: Tree, target: Value):
    """(y, build): the value y the other part must reach so that x op y (or y op x) == target, and how to
    build the tree from y's tree. y None means any value (x = 0 with a target of 0)."""
    yield target - x, lambda ty: ("+", tx, ty)
    yield x - target, lambda ty: ("-", tx, ty)
    yield target + x, lambda ty: ("-", ty, tx)
    if x != 0:
        yield quotient(target, x), lambda ty: ("*", tx, ty)
        yield target * x, lambda ty: ("/", ty, tx)
    elif target == 0:
        yield None, lambda ty: ("*", tx, ty)
    if target != 0:
        if x != 0:
            yield quotient(x, target), lambda ty: ("/", tx, ty)
    elif x == 0:
        yield None, lambda ty: ("/", tx, ty)  # 0 / y for any y != 0


def _submasks(mask: int):
    """Every non-empty proper submask of `mask`."""
    sub = (mask - 1) & mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


class Solver:
    """Values reachable from subsets of `numbers`, and targets searched by splitting."""

    def __init__(self, numbers: list[int]):
        self.numbers = list(numbers)
        self.reach: dict[int, dict[Value, Tree]] = {}
        self.memo: dict[tuple[int, Value], Tree | None] = {}

    def reachable(self, mask: int) -> dict[Value, Tree]:
        """{value: tree} for every value the numbers in `mask` can make (tabulated; for small masks)."""
        table = self.reach.get(mask)
        if table is not None:
            return table
        if mask & (mask - 1) == 0:
            n = self.numbers[mask.bit_length() - 1]
            table = {n: n}
        else:
            table = {}
            low = mask & -mask  # each split once: the part holding the lowest number is on the left
            for part in _submasks(mask):
                if not part & low:
                    continue
                for a, ta in self.reachable(part).items():
                    for b, tb in self.reachable(mask ^ part).items():
                        for value, tree in _combine(a, ta, b, tb):
                            table.setdefault(value, tree)
        self.reach[mask] = table
        return table

    def find(self, mask: int, target: Value) -> Tree | None:
        """A tree over exactly the numbers in `mask` whose value is `target`, or None."""
        if mask.bit_count() <= SMALL:
            return self.reachable(mask).get(target)
        key = (mask, target)
        if key in self.memo:
            return self.memo[key]
        found = None
        for part in _submasks(mask):
            rest = mask ^ part
            # the tabulated side is the part; the rest is searched (and is the bigger side, or equal)
            if part.bit_count() > SMALL or part.bit_count() > rest.bit_count():
                continue
            for x, tx in self.reachable(part).items():
                for y, build in _needs(x, tx, target):
                    ty = self._any(rest) if y is None else self.find(rest, y)
                    if ty is not None:
                        found = build(ty)
                        break
                if found is not None:
                    break
            if found is not None:
                break
        self.memo[key] = found
        return found

    def _any(self, mask: int) -> Tree | None:
        """Some tree over `mask` with a non-zero value (what 0 * y and 0 / y need)."""
        if mask.bit_count() <= SMALL:
            return next((t for v, t in self.reachable(mask).items() if v != 0), None)
        total = sum(self.numbers[i] for i in range(len(self.numbers)) if mask >> i & 1)
        return self.find(mask, total) if total != 0 else None


def render(tree: Tree, top: bool = True) -> str:
    """`('/', 8, ('-', 3, ('/', 8, 3)))` -> `8 / (3 - (8 / 3))`: fully parenthesised below the top."""
    if not isinstance(tree, tuple):
        return str(tree)
    op, left, right = tree
    text = f"{render(left, False)} {op} {render(right, False)}"
    return text if top else f"({text})"


def solve(numbers: list[int], target: int) -> str | None:
    """An expression using every number once that equals `target` exactly, or None when there is none."""
    if not numbers:
        return None
    tree = Solver(numbers).find((1 << len(numbers)) - 1, target)
    return None if tree is None else render(tree)
