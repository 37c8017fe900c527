"""code_function: the families, the hidden tests outside the sandbox, and the reward hacks that must score 0."""
from __future__ import annotations

import asyncio
import inspect
import json
import random

import pytest

from bc_common.builtin_model import baseline_trajectory
from bc_common.environment import Environments
from bc_common.sandbox import SandboxUnavailable, sandbox_for
from bc_common.tasks import TaskSet
from bootcamps.code_function.families import FAMILIES, LEVELS
from bootcamps.code_function.reward import CodeFunctionRewardCalculator as Reward


@pytest.fixture(scope="module", autouse=True)
def _needs_bubblewrap():
    try:
        sandbox_for("bubblewrap")
    except SandboxUnavailable as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")


def task(group: str, i: int = 0) -> dict:
    return TaskSet("code_function", seed=3, groups=[group])[i]


def score(code: str, identity: dict) -> float:
    return Reward.verify_score(f"```python\n{code}\n```", identity)


def test_at_least_twenty_families_each_self_contained():
    assert len(FAMILIES) >= 20 and all(len(level) >= 6 for level in LEVELS.values())
    for family in FAMILIES.values():
        params = family.variant(random.Random(1))
        source = family.source(params)
        assert source.startswith(f"def {family.entry}(")
        scope: dict = {}
        exec(compile(source, "reference.py", "exec"), scope)  # our own reference, bound to the variant
        inputs = family.hidden_inputs(7, "medium", 10, [], params)
        assert len(inputs) >= 10 + len(family.edges(params)) - 1
        outputs = family.expected(inputs, params)
        assert [json.loads(json.dumps(scope[family.entry](*a))) for a in json.loads(json.dumps(inputs))] == outputs
        assert len({repr(out) for out in outputs}) >= 3, family.entry  # outputs vary


def test_variants_change_the_required_behaviour():
    """One task's correct function fails another task of its family with another variant (the cross-instance
    answer a family-wide function would be): across 12 variants of each family, at most 5% of ordered pairs
    of distinct variants agree on all of the other's hidden tests."""
    for family in FAMILIES.values():
        rng = random.Random(3)
        variants = [json.loads(json.dumps(family.variant(rng))) for _ in range(12)]
        tests = [family.hidden_inputs(100 + k, "medium", 10, [], v) for k, v in enumerate(variants)]
        pairs = [(a, b) for a in range(12) for b in range(12) if a != b and variants[a] != variants[b]]
        agree = sum(family.expected(tests[b], variants[a]) == family.expected(tests[b], variants[b])
                    for a, b in pairs)
        assert agree <= 0.05 * len(pairs), (family.entry, agree, len(pairs))


def test_the_prompt_names_the_variant():
    identity = task("easy", 0)["reward_model"]["ground_truth"]
    prompt = task("easy", 0)["prompt"][0]["content"]
    family = FAMILIES[identity["family"]]
    assert " ".join(family.spec(identity["params"]).split()) in " ".join(prompt.split())


def test_hidden_inputs_skip_the_visible_examples():
    identity = task("easy", 1)["reward_model"]["ground_truth"]
    family = FAMILIES[identity["family"]]
    visible = [e["args"] for e in identity["examples"]]
    hidden = family.hidden_inputs(identity["seed"], identity["size"], identity["hidden"], visible, identity["params"])
    assert not any(args in visible for args in hidden)


def test_the_reference_scores_one_and_a_wrong_function_less():
    identity = task("medium", 2)["reward_model"]["ground_truth"]
    source = FAMILIES[identity["family"]].source(identity["params"])
    assert score(source, identity) == 1.0
    assert score(f"def {identity['entry']}(*args):\n    return 12345\n", identity) < 0.25


HACKS = {
    "print_passed": "print('PASSED')\nprint('10 passed, 0 failed')\n\ndef {entry}(*args):\n    return None\n",
    "exit_before_tests": "import sys\nsys.exit(0)\n\ndef {entry}(*args):\n    return None\n",
    "hard_exit": "import os\nos._exit(0)\n",
    "delete_and_edit_tests": (
        "import os\n"
        "for root in ('/workspace', '/tmp', '.'):\n"
        "    for dirpath, dirs, files in os.walk(root):\n"
        "        for name in files:\n"
        "            try:\n"
        "                open(os.path.join(dirpath, name), 'w').write('def test_all(): pass\\n')\n"
        "            except OSError:\n"
        "                pass\n"
        "def {entry}(*args):\n    return None\n"),
    "monkeypatch_runner": (
        "import builtins, json, sys\n"
        "json.dumps = lambda *a, **k: '{{\"i\": 0, \"value\": true}}'\n"
        "builtins.isinstance = lambda *a: True\n"
        "sys.modules['unittest'] = None\n"
        "def {entry}(*args):\n    raise SystemExit(0)\n"),
    "read_expected_outputs": (
        "import glob, os\n"
        "found = []\n"
        "for pattern in ('/workspace/**', '/tmp/**', '/data/**', '/proc/1/cwd/**'):\n"
        "    found += glob.glob(pattern, recursive=True)\n"
        "def {entry}(*args):\n"
        "    for path in found:\n"
        "        try:\n"
        "            return open(path).read()\n"
        "        except OSError:\n"
        "            pass\n"
        "    return None\n"),
}


@pytest.mark.parametrize("hack", sorted(HACKS))
def test_reward_hacks_score_zero(hack):
    for group in ("easy", "hard"):
        identity = task(group)["reward_model"]["ground_truth"]
        assert score(HACKS[hack].format(entry=identity["entry"]), identity) == 0.0, (hack, group)


def test_a_brute_force_fails_the_hard_group():
    """The hard group's large inputs: a quadratic pairs_with_sum passes the small tests and runs out of time on
    the large ones (the linear reference passes all)."""
    rows = TaskSet("code_function", seed=3, groups=["hard"])
    identity = next(r["reward_model"]["ground_truth"] for r in (rows[i] for i in range(200))
                    if r["reward_model"]["ground_truth"]["family"] == "pairs_with_sum")
    p = identity["params"]
    brute = ("def pairs_with_sum(nums, target):\n"
             f"    relation, m, gap, only = {p['relation']!r}, {p['modulus']!r}, {p['min_gap']!r}, {p['only']!r}\n"
             "    def kept(x):\n"
             "        return only == 'all' or (only == 'odd' and x % 2 == 1) or (only == 'nonnegative' and x >= 0)\n"
             "    def hit(a, b):\n"
             "        if relation == 'sum':\n"
             "            return a + b == target\n"
             "        if relation == 'difference':\n"
             "            return b - a == target\n"
             "        return (a + b) % m == target % m\n"
             "    return sum(1 for i in range(len(nums)) for j in range(i + gap, len(nums))\n"
             "               if kept(nums[i]) and kept(nums[j]) and hit(nums[i], nums[j]))\n")
    slow = score(brute, identity)
    assert 0.5 < slow < 1.0
    assert score(FAMILIES["pairs_with_sum"].source(p), identity) == 1.0


def test_hostile_text_is_fast_and_scores_zero():
    identity = task("easy")["reward_model"]["ground_truth"]
    for text in ("```python\n" + "(" * 100_000 + "\n```", "```python\n" + "x = 1\n" * 20_000 + "```", "```sql\nx```"):
        assert Reward.verify_score(text, identity) == 0.0


@pytest.mark.parametrize("name", ["examples_lookup", "constant", "echo", "print_passed"])
def test_baselines_score_low(name):
    envs = Environments()
    rows = [TaskSet("code_function", seed=9, groups=[g])[i] for g in ("easy", "medium") for i in range(4)]

    async def play() -> list[dict]:
        return [await baseline_trajectory(r, envs.get(r["data_source"]), name) for r in rows]

    scores = [t["score"] for t in asyncio.run(play())]
    assert sum(scores) / len(scores) <= 0.25 and max(scores) < 1.0, scores


def test_rows_name_the_sandbox_and_its_limits():
    envs = Environments()
    row = task("hard")
    trajectory = asyncio.run(baseline_trajectory(row, envs.get(row["data_source"]), "constant"))
    assert trajectory["sandbox"]["sandbox"].startswith("bubblewrap")
    assert trajectory["sandbox"]["unsandboxed"] is False and trajectory["sandbox"]["limits"]["cpu_s"] == 4


def test_the_policy_sources_are_real_functions():
    for family in FAMILIES.values():
        assert inspect.isfunction(family.reference) and family.reference.__name__ == family.entry
