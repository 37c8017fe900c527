"""The task types of the sy collection, by name (one module each)."""
from __future__ import annotations

from ..core import Task
from .antiderivative import Antiderivative
from .characteristic_polynomial import CharacteristicPolynomial
from .congruences import Congruences
from .definite_integral import DefiniteIntegral
from .derivative import Derivative
from .determinant import Determinant
from .eigenvalues import Eigenvalues
from .factor import Factor
from .interpolation import Interpolation
from .limit import Limit
from .linear_system import LinearSystem
from .matrix_inverse import MatrixInverse
from .nullspace import Nullspace
from .ode import Ode
from .partial_fractions import PartialFractions
from .poly_gcd import PolyGcd
from .poly_roots import PolyRoots
from .recurrence import Recurrence
from .sum_closed_form import SumClosedForm
from .taylor import Taylor

TASKS: dict[str, type[Task]] = {cls.name: cls for cls in (
    Antiderivative, CharacteristicPolynomial, Congruences, DefiniteIntegral, Derivative, Determinant, Eigenvalues,
    Factor, Interpolation, Limit, LinearSystem, MatrixInverse, Nullspace, Ode, PartialFractions, PolyGcd, PolyRoots,
    Recurrence, SumClosedForm, Taylor)}
