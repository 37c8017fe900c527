"""Bootcamps `sy/<task>`: symbolic mathematics (antiderivatives, limits, series, roots, factorisations, ODEs,
matrices, closed forms), made and checked with SymPy; any correct answer in any equivalent form scores, read by a
whitelisting parser (never `sympify`) and checked against the instance."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

bootcamp = missing_extra("symbolic", ["sympy"],
                         description="Symbolic mathematics as bootcamps sy/<task> (antiderivative, limit, factor, "
                                     "ODE, ...), made and checked with SymPy.")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
