"""sy/<task>: the safe parser refuses what it must (fast), the verifiers accept every correct form and reject
near misses, seeded rows are deterministic and solved, and the collection is listed unavailable without SymPy."""
import dataclasses
import random
import subprocess
import sys
import time

import pytest

pytest.importorskip("sympy")

from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.sy import parse  # noqa: E402
from bootcamps.sy.collection import bootcamp  # noqa: E402
from bootcamps.sy.tasks import TASKS  # noqa: E402


def score(name: str, identity: dict, body: str) -> float:
    return TASKS[name]().verify(identity, f"Working...\n<answer>{body}</answer>")[0]


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "x.__class__", "(lambda: 1)()", "[c for c in ()]", "open('f')",
    "x**(10**10)", "2**2**2**2**2", "9" * 50, "sin(x, y)", "f(x)", "x if x else 1", "1e999999999", "2j",
    "((((" * 60 + "x" + "))))" * 60, "x +" * 700 + "x", "",
])
def test_parser_refuses_unsafe_or_huge_text(text):
    started = time.perf_counter()
    with pytest.raises(parse.Refused):
        parse.expression(text)
    assert time.perf_counter() - started < 0.05


def test_parser_reads_the_usual_notations():
    x = parse.symbol("x")
    assert parse.expression("x^2 + 0.5") == x**2 + parse.sp.Rational(1, 2)
    assert parse.expression("ln(x) + arctan(x) + e") == parse.sp.log(x) + parse.sp.atan(x) + parse.sp.E
    assert parse.items("x = 1, x = -3/2") == [1, parse.sp.Rational(-3, 2)]
    assert parse.assignments("y = 2; x = -1", ("x", "y")) == {"x": -1, "y": 2}
    assert [k for _, k in parse.products("-2*(x + 1)**2*(x - 3)")] == [1, 1, 2, 1]


ANTI = {"task": "antiderivative", "integrand": "x*cos(x) + sin(x)", "answer": "x*sin(x)"}


@pytest.mark.parametrize(("body", "expected"), [
    ("x*sin(x)", 1.0), ("x*sin(x) + 7", 1.0), ("x*sin(x) - pi", 1.0), ("sin(x)*x", 1.0),
    ("-x*sin(x)", 0.0), ("x*sin(x) + x", 0.0), ("x*cos(x) + sin(x)", 0.0), ("0", 0.0),
    ("x*sin(x) + 0.0000000001*x", 0.0), ("exp(exp(exp(exp(x))))", 0.0), ("x**x**x**x", 0.0),
])
def test_antiderivative_accepts_any_constant_and_rejects_near_misses(body, expected):
    assert score("antiderivative", ANTI, body) == expected


def test_factor_needs_irreducible_factors_whose_product_is_the_polynomial():
    inst = {"task": "factor", "polynomial": "2*x**3 - 2*x", "count": 3, "degree": 3, "answer": "2*x*(x - 1)*(x + 1)"}
    assert score("factor", inst, "2*x*(x - 1)*(x + 1)") == 1.0
    assert score("factor", inst, "x*(2*x - 2)*(x + 1)") == 1.0  # over Q the content may sit in any factor
    assert score("factor", inst, "-2*x*(1 - x)*(x + 1)") == 1.0
    assert score("factor", inst, "2*x*(x**2 - 1)") == 0.0  # equal, but x**2 - 1 is reducible
    assert score("factor", inst, "2*x**3 - 2*x") == 0.0
    assert score("factor", inst, "2*x*(x - 1)*(x + 2)") == 0.0
    assert score("factor", inst, "(x + 1)**100*(x - 1)") == 0.0


def test_partial_fractions_checks_the_form_and_the_value():
    inst = {"task": "partial_fractions", "fraction": "(x + 3)/(x**2 - 1)", "answer": "2/(x - 1) - 1/(x + 1)",
            "cover_up": ""}
    assert score("partial_fractions", inst, "-1/(x + 1) + 2/(x - 1)") == 1.0
    assert score("partial_fractions", inst, "(x + 3)/(x**2 - 1)") == 0.0  # the value, not the form
    assert score("partial_fractions", inst, "2/(x - 1) + 1/(x + 1)") == 0.0


def test_roots_accept_any_exact_form_in_any_order_and_refuse_decimals():
    inst = {"task": "poly_roots", "polynomial": "x**3 - x**2 - 2*x", "roots": ["-1 + sqrt(3)", "-1 - sqrt(3)", "2"],
            "answer": ""}
    assert score("poly_roots", inst, "2, (-2 - sqrt(12))/2, -1 + 3**(1/2)") == 1.0
    assert score("poly_roots", inst, "x = 2, x = -1 - sqrt(3), x = -1 + sqrt(3)") == 1.0
    assert score("poly_roots", inst, "2, -1 + sqrt(3), -2.7320508075688772") == 0.0
    assert score("poly_roots", inst, "2, -1 + sqrt(3), -1 + sqrt(3)") == 0.0
    assert score("poly_roots", inst, "2, -1 + sqrt(3)") == 0.0


def test_ode_is_checked_by_substitution_and_initial_conditions():
    inst = {"task": "ode", "coefficients": [1, 0, 1], "forcing": "x", "initial": ["1", "2"], "answer": "",
            "homogeneous": ""}
    assert score("ode", inst, "x + cos(x) + sin(x)") == 1.0
    assert score("ode", inst, "x + sqrt(2)*sin(x + pi/4)") == 1.0
    assert score("ode", inst, "x + cos(x)") == 0.0  # y'(0) = 1
    assert score("ode", inst, "cos(x) + 2*sin(x)") == 0.0  # the homogeneous solution only


@pytest.mark.parametrize("name", sorted(TASKS))
def test_rows_are_deterministic_and_solved_and_near_misses_fail(name):
    # the manifest itself, withheld or not (a withheld task's rows must still be right)
    manifest = dataclasses.replace(bootcamp(name), name=f"sy/{name}")
    task = TASKS[name]()
    for group in manifest.group_list():
        row = TaskSet(manifest, seed=5, split="train", groups=[group.name])[0]
        identity = row["reward_model"]["ground_truth"]
        assert task.accepts(identity, identity["answer"])
        wrong = task.corrupt(identity, random.Random(0))
        assert not task.accepts(identity, wrong)
        assert TaskSet(manifest, seed=5, split="train", groups=[group.name])[0] == row


def test_collection_is_unavailable_without_sympy():
    code = ("import sys; sys.modules['sympy'] = None\n"
            "from bc_common.catalog import get_bootcamp\n"
            "import bootcamps.sy as sy\n"
            "print(sy.bootcamp.extra, sy.bootcamp.missing)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "symbolic ['sympy']"


def test_congruences_need_the_least_non_negative_solution():
    inst = {"task": "congruences", "moduli": [4, 6, 9], "residues": [3, 5, 2], "answer": "11"}
    assert score("congruences", inst, "11") == 1.0
    assert score("congruences", inst, "47") == 0.0  # a solution (11 + lcm 36), not the least
    assert score("congruences", inst, "15") == 0.0  # x = 3 (mod 4) only
    assert score("congruences", inst, "11/1 + 1/2") == 0.0


def test_interpolation_accepts_any_form_of_the_unique_polynomial():
    inst = {"task": "interpolation", "points": [[-1, 4], [0, 1], [2, 1]], "answer": "x**2 - 2*x + 1"}
    assert score("interpolation", inst, "(x - 1)^2") == 1.0
    assert score("interpolation", inst, "4*x*(x - 2)/3 + (x + 1)*(x - 2)/(-2) + (x + 1)*x/6") == 1.0
    assert score("interpolation", inst, "x**2 - 2*x + 1 + x*(x + 1)*(x - 2)") == 0.0  # through them, degree 3
    assert score("interpolation", inst, "x**2 - 2*x + 2") == 0.0


def test_characteristic_polynomial_takes_either_sign_convention():
    inst = {"task": "characteristic_polynomial", "matrix": [[2, 1, 0], [0, 3, 1], [1, 0, 1]],
            "answer": "x**3 - 6*x**2 + 11*x - 7"}
    assert score("characteristic_polynomial", inst, "(x - 2)*(x - 3)*(x - 1) - 1") == 1.0
    assert score("characteristic_polynomial", inst, "-x^3 + 6*x^2 - 11*x + 7") == 1.0  # det(A - x*I)
    assert score("characteristic_polynomial", inst, "x**3 - 6*x**2 + 11*x - 6") == 0.0


def test_nullspace_accepts_any_basis_and_rejects_dependent_or_wrong_vectors():
    inst = {"task": "nullspace", "matrix": [[1, 1, 1, 1], [1, 2, 3, 4]], "nullity": 2,
            "answer": "[[1, -2, 1, 0], [2, -3, 0, 1]]"}
    assert score("nullspace", inst, "[[1, -2, 1, 0], [2, -3, 0, 1]]") == 1.0
    assert score("nullspace", inst, "[[3, -5, 1, 1], [-1/2, 1, -1/2, 0]]") == 1.0  # another basis
    assert score("nullspace", inst, "[[1, -2, 1, 0], [2, -4, 2, 0]]") == 0.0  # dependent
    assert score("nullspace", inst, "[[1, -2, 1, 0]]") == 0.0  # too few
    assert score("nullspace", inst, "[[1, -2, 1, 0], [2, -3, 0, 2]]") == 0.0


def test_derivatives_by_taylor_arithmetic_match_sympy():
    import mpmath
    import sympy as sp

    from bootcamps.sy import numeric

    x = parse.symbol("x")
    for text in ["x**x + atan(x**2)*log(x)", "tan(x)/cosh(x) + sec(x)*csc(x) - cot(x)",
                 "asin(x/2) + acos(x/3) + tanh(x)*sinh(x)", "sqrt(x**2 + 2)*x**5 + 2**x + x**(-3)"]:
        e = parse.expression(text)
        point = {x: mpmath.mpf("0.37")}
        got = numeric.derivatives(e, x, point, 2)
        for k in range(3):
            assert numeric.close(got[k], numeric.value(sp.diff(e, x, k), point)), (text, k)


@pytest.mark.parametrize("name", ["congruences", "interpolation", "characteristic_polynomial", "nullspace"])
def test_new_tasks_refuse_hostile_answers_fast(name):
    manifest = dataclasses.replace(bootcamp(name), name=f"sy/{name}")
    identity = TaskSet(manifest, seed=3, split="train", groups=["hard"])[0]["reward_model"]["ground_truth"]
    for body in ["x**(10**10)", "(" * 30 + "1" + ")" * 30 + "+x" * 25000, "[[" + "9" * 39 + "**99" * 30 + "]]",
                 "[[1, 2]] * 10**9", "__import__('os')"]:
        started = time.perf_counter()
        assert score(name, identity, body) == 0.0
        assert time.perf_counter() - started < 0.05
