"""al/matrix_chain: the least cost of multiplying a chain of matrices and a bracketing that reaches it (any optimal
bracketing scores; the cost is stated too, as a bracketing alone is one of few shapes)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Problem, number

Tree = int | tuple  # a matrix number, or (left, right) multiplied
_TOKEN = re.compile(r"\s*(?:([()])|A([0-9]{1,3})|[*x×·])")


def cheapest(dims: list[int]) -> tuple[int, Tree]:
    """(least number of scalar multiplications, an optimal tree) by the O(n^3) interval DP."""
    n = len(dims) - 1
    cost = {(i, i): (0, i + 1) for i in range(n)}
    for span in range(1, n):
        for i in range(n - span):
            j = i + span
            cost[(i, j)] = min(((cost[(i, k)][0] + cost[(k + 1, j)][0] + dims[i] * dims[k + 1] * dims[j + 1],
                                 (cost[(i, k)][1], cost[(k + 1, j)][1])) for k in range(i, j)), key=lambda c: c[0])
    return cost[(0, n - 1)]


def tree_cost(tree: Tree, dims: list[int]) -> tuple[int, int, int]:
    """(multiplications, first matrix, last matrix) of a tree."""
    if isinstance(tree, int):
        return 0, tree, tree
    (a, first, mid), (b, _, last) = tree_cost(tree[0], dims), tree_cost(tree[1], dims)
    return a + b + dims[first - 1] * dims[mid] * dims[last], first, last


def leaves(tree: Tree) -> list[int]:
    return [tree] if isinstance(tree, int) else leaves(tree[0]) + leaves(tree[1])


def parse(body: str) -> Tree | None:
    """`((A1A2)A3)` -> ((1, 2), 3): every pair of brackets holds exactly two factors (the outer pair may be left
    out); a stack, so deep nesting cannot exhaust the interpreter's recursion."""
    stack: list[list[Tree]] = [[]]
    pos, text = 0, body.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        pos = m.end()
        if m[1] == "(":
            stack.append([])
        elif m[1] == ")":
            if len(stack) < 2 or len(stack[-1]) not in (1, 2):
                return None
            inner = stack.pop()
            stack[-1].append(inner[0] if len(inner) == 1 else (inner[0], inner[1]))
        elif m[2]:
            stack[-1].append(int(m[2]))
    if len(stack) != 1 or len(stack[0]) not in (1, 2):
        return None
    return stack[0][0] if len(stack[0]) == 1 else (stack[0][0], stack[0][1])


def show_tree(tree: Tree) -> str:
    return f"A{tree}" if isinstance(tree, int) else f"({show_tree(tree[0])}{show_tree(tree[1])})"


def chain(n: int, left: bool) -> Tree:
    tree: Tree = 1 if left else n
    for k in (range(2, n + 1) if left else range(n - 1, 0, -1)):
        tree = (tree, k) if left else (k, tree)
    return tree


def cheapest_pair_first(dims: list[int]) -> Tree:
    """Repeatedly multiply the adjacent pair that costs least right now."""
    items: list[tuple[Tree, int, int]] = [(k + 1, dims[k], dims[k + 1]) for k in range(len(dims) - 1)]
    while len(items) > 1:
        k = min(range(len(items) - 1), key=lambda i: items[i][1] * items[i][2] * items[i + 1][2])
        items[k:k + 2] = [((items[k][0], items[k + 1][0]), items[k][1], items[k + 1][2])]
    return items[0][0]


class MatrixChain(Problem):
    name = "matrix_chain"
    title = "Matrix chain multiplication order"
    knobs = {"matrices": Knob(6, 3, 14, "matrices in the chain"), "max_dim": Knob(40, 4, 200, "dimensions 2..it")}
    groups = {"easy": {"matrices": 4, "max_dim": 20}, "medium": {"matrices": 6, "max_dim": 40},
              "hard": {"matrices": 9, "max_dim": 60}}
    answer_format = ("the least total cost, a semicolon, and a bracketing that costs that, two factors in every "
                     "pair of brackets, e.g. <answer>c; ((AaAb)(AcAd))</answer> with the matrices' own names.")
    baselines = {"left_to_right": "((A1A2)A3)... multiplied from the left",
                 "right_to_left": "A1(A2(A3...)) multiplied from the right",
                 "cheapest_pair": "the adjacent pair that costs least right now, repeatedly"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        dims = [rng.randint(2, p.max_dim) for _ in range(p.matrices + 1)]
        best, tree = cheapest(dims)
        inst = {"dims": dims, "optimum": best, "solution": tree}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        dims = inst["dims"]
        rows = "\n".join(f"A{k}: {dims[k - 1]} x {dims[k]}" for k in range(1, len(dims)))
        return (f"Matrices and their sizes (rows x columns):\n{rows}\n\nThe product A1 A2 ... A{len(dims) - 1} can be "
                "computed in any bracketing; multiplying a p x q matrix by a q x r matrix costs p*q*r scalar "
                "multiplications. Find the least total cost, and a bracketing that reaches it.")

    def show(self, answer: tuple[int, Tree]) -> str:
        return f"{answer[0]}; {show_tree(answer[1])}"

    def read(self, body: str) -> tuple[int, Tree] | None:
        cost, sep, bracketing = body.partition(";")
        total, tree = number(cost), parse(bracketing)
        return None if not sep or total is None or tree is None else (total, tree)

    def check(self, inst: dict[str, Any], answer: tuple[int, Tree]) -> str | None:
        stated, tree = answer[0], _tuples(answer[1])
        if leaves(tree) != list(range(1, len(inst["dims"]))):
            return f"not the matrices A1..A{len(inst['dims']) - 1}, each once and in order"
        total = tree_cost(tree, inst["dims"])[0]
        if stated != total:
            return f"the bracketing costs {total}, not the stated {stated}"
        return None if total == inst["optimum"] else f"cost {total}; the least is {inst['optimum']}"

    def solve(self, inst: dict[str, Any]) -> tuple[int, Tree]:
        return inst["optimum"], _tuples(inst["solution"])

    def costed(self, inst: dict[str, Any], tree: Tree) -> tuple[int, Tree]:
        """A bracketing with its own true cost stated."""
        return tree_cost(tree, inst["dims"])[0], tree

    def corrupt(self, inst: dict[str, Any], answer: tuple[int, Tree], rng: random.Random) -> tuple[int, Tree]:
        return self.costed(inst, chain(len(inst["dims"]) - 1, left=rng.random() < 0.5))

    def baseline_left_to_right(self, inst: dict[str, Any], rng: random.Random) -> tuple[int, Tree]:
        return self.costed(inst, chain(len(inst["dims"]) - 1, left=True))

    def baseline_right_to_left(self, inst: dict[str, Any], rng: random.Random) -> tuple[int, Tree]:
        return self.costed(inst, chain(len(inst["dims"]) - 1, left=False))

    def baseline_cheapest_pair(self, inst: dict[str, Any], rng: random.Random) -> tuple[int, Tree]:
        return self.costed(inst, cheapest_pair_first(inst["dims"]))


def _tuples(tree: Any) -> Tree:
    """A tree back from JSON (lists) as tuples."""
    return tree if isinstance(tree, int) else (_tuples(tree[0]), _tuples(tree[1]))
