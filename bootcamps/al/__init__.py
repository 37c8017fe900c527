"""Bootcamps `al/<problem>`: InternBootcamp-style algorithmic problems with exact answers (flows, matchings,
dynamic programming, graph orders, number theory); any correct answer scores, checked against the instance and the
optimum computed when the task was made."""
from __future__ import annotations

from .collection import collection  # noqa: F401  (the catalog's entry point)
