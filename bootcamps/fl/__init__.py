"""Bootcamps `fl/<task>`: formal languages, logic and automata (SAT, automata, grammars, regular expressions,
rewriting, unification, lambda calculus, machines); one reply, a constructive answer checked against the instance."""
from __future__ import annotations

from .collection import collection  # noqa: F401  (the catalog's entry point)
