"""A family of function-writing tasks: its entry point, spec, reference implementation, per-task variant and input
generator."""
from __future__ import annotations

import ast
import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from bc_common.function_runner import normalised

SIZES = {"small": 6, "medium": 30, "large": 20_000}


@dataclass(frozen=True)
class Family:
    """One kind of function. The reference is named like the entry point, imports what it needs inside (so its
    source runs alone) and takes the variant's parameters as keyword-only arguments: `variant(rng)` draws them per
    task (a separator, a modulus, a rule: they change the required behaviour and the spec names them);
    `spec(params)` is the text the model reads; `draw(rng, n, params)` gives one argument list of about size n;
    `edges(params)` are argument lists every task tests; `large(rng, params)` (hard families) gives one argument
    list big enough that a brute force runs out of time."""

    entry: str
    reference: Callable[..., Any]
    signature: str
    spec: Callable[[dict[str, Any]], str]
    variant: Callable[[random.Random], dict[str, Any]]
    draw: Callable[[random.Random, int, dict[str, Any]], list[Any]]
    edges: Callable[[dict[str, Any]], list[list[Any]]] = field(default=lambda p: [])
    large: Callable[[random.Random, dict[str, Any]], list[Any]] | None = None

    def source(self, params: dict[str, Any]) -> str:
        """The reference implementation with the task's parameters bound as defaults: a function callable with the
        public arguments only (what the reference policy answers)."""
        tree = ast.parse(inspect.getsource(self.reference))
        function = tree.body[0]
        assert isinstance(function, ast.FunctionDef)
        function.args.kw_defaults = [ast.parse(repr(params[a.arg]), mode="eval").body
                                     for a in function.args.kwonlyargs]
        return ast.unparse(tree) + "\n"

    def call(self, args: list[Any], params: dict[str, Any]) -> Any:
        """The reference's output for one argument list, as it looks after the runner's JSON round trip."""
        return normalised(self.reference(*orjson.loads(orjson.dumps(args)), **params))  # a fresh copy, fast

    def expected(self, inputs: list[list[Any]], params: dict[str, Any]) -> list[Any]:
        """The reference's outputs for `inputs`."""
        return [self.call(args, params) for args in inputs]

    def hidden_inputs(self, seed: int, size: str, count: int, avoid: list[list[Any]],
                      params: dict[str, Any]) -> list[list[Any]]:
        """The hidden tests' inputs: the edge cases, `count` random ones (none equal to a visible example), and,
        for the large size, big ones last (so a slow solution keeps the credit of the small tests)."""
        rng = random.Random(seed)
        seen = {repr(a) for a in avoid}
        out = [list(e) for e in self.edges(params) if repr(e) not in seen]
        seen |= {repr(a) for a in out}
        n = SIZES["medium" if size == "large" else size]
        goal = len(out) + count
        for _ in range(count * 20):
            if len(out) >= goal:
                break
            args = self.draw(rng, n, params)
            if repr(args) not in seen:
                seen.add(repr(args))
                out.append(args)
        if size == "large" and self.large is not None:
            out += [self.large(rng, params) for _ in range(3)]
        return out
