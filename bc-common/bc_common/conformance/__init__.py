"""The conformance suite every bootcamp passes, installable: run it on your own bootcamp package.

    # tests/test_conformance.py of a bootcamp package
    from bc_common.conformance import pytest_suite
    test_conformance = pytest_suite(["mybootcamp"])

    python -m bc_common.conformance mybootcamp        # the same checks from the shell

The reference policy plays N seeded tasks through the rollout loop `bc-eval` runs (episodes are played once per
bootcamp and process, and shared by every check). `BC_BOOTCAMPS=a,b` restricts the suite to some bootcamps;
`BC_CONFORMANCE_N` changes N. A bootcamp tunes it with `Bootcamp.conformance`: `n` (tasks, default 200),
`small_answer_space` (a reason: skip the most-frequent-answer check, and require a balanced answer split instead),
`known_issues` (check -> reason: the check is reported as an expected failure, not silently dropped).

The signal checks (`signal.SIGNAL_CHECKS`: baselines, noisy against reference, difficulty order, distinctness,
visual and hidden-state baselines) run after the attack checks; every limit is in `thresholds.THRESHOLDS`.
`BC_SIGNAL_N` / `BC_DISTINCT_N` change their sample sizes (tasks per group and policy; rows per group).
"""
from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

from ..bootcamp import assistant_texts, final_assistant_text
from ..builtin_model import reference_trajectory
from ..catalog import available, get_bootcamp
from ..environment import Environments
from ..manifest import Bootcamp
from ..tasks import TaskSet
from ..tool_config import check_function_schema
from .signal import SIGNAL_CHECKS, Signal
from .thresholds import THRESHOLDS, ConformanceError

DEFAULT_N = 200
MAX_SHARE = THRESHOLDS.max_share
HOSTILE_BUDGET_S = THRESHOLDS.hostile_budget_s
ATTACK_CHECKS = ("reference_scores_one", "reference_uses_tools", "no_reward_for_calling_tools",
          "corrupted_answers_score_below_one", "identity_survives_json", "generation_deterministic_and_varied",
          "prompt_does_not_give_the_answer", "cross_instance_answers", "most_frequent_answer",
          "hostile_text", "tool_schemas", "yaml_class_names_inside_package", "readme")
CHECKS = ATTACK_CHECKS + SIGNAL_CHECKS
__all__ = ["CHECKS", "THRESHOLDS", "Conformance", "ConformanceError", "pytest_suite"]


def selected_bootcamps() -> list[str]:
    """`BC_BOOTCAMPS` (comma-separated) or every available bootcamp."""
    chosen = [n.strip() for n in os.environ.get("BC_BOOTCAMPS", "").split(",") if n.strip()]
    return chosen or available()


def _answer_key(trajectory: dict[str, Any], grades: str) -> Any:
    """What a reference answered: its final text, or every assistant text for a `grades = "all"` verifier; when
    its assistant messages call tools, those messages whole (as JSON), since a game played through tools (moves
    as tool calls) is graded from the calls, which are part of the assistant's messages."""
    messages = trajectory["messages"]
    if grades == "all":
        mine = [m for m in messages if m.get("role") == "assistant"]
        if any(m.get("tool_calls") for m in mine):
            return tuple(orjson.dumps({"role": "assistant", "content": m.get("content") or "",
                                       "tool_calls": m.get("tool_calls") or []}, option=orjson.OPT_SORT_KEYS)
                         for m in mine)
        return tuple(assistant_texts(messages))
    return final_assistant_text(messages)


HOSTILE_TEXTS = (
    "a" * (1 << 20),
    "[" * 10_000 + "]" * 10_000,
    "{" * 10_000 + "}" * 10_000,
    "(" * 10_000 + "1" + ")" * 10_000,
    "<answer>1</answer>" * 20_000,
    "```json\n{\"result\": 1}\n```\n" * 5_000,
    "<move>5</move>" * 20_000,
    "١٢٣٤٥٦٧٨٩٠ ۱۲۳ ０１２３ ߁߂߃",
    "1e999999999",
    "<answer>1e999999999</answer> ```json\n{\"result\": 1e999999999}\n```",
    "9" * 100_000,
    "\x00\ud7ff\uffff" * 1000,
    # within the usual answer limits (4,096 characters): runs that make a pattern with a leading or doubled `\s*`, or
    # a digit run with no end in sight, backtrack quadratically (0.2-0.3 s each before such patterns were rewritten)
    "<answer>" + "\n" * 4000 + "</answer>",
    "<answer>" + " " * 4000 + "x</answer>",
    "<answer>" + "1" * 3000 + "</answer>",
    "<answer>2**" + " " * 4000 + "x</answer>",
    "```json\n{\"result\": " + " " * 4000 + "x}\n```",
)


class Conformance:
    """The checks of one bootcamp over `n` seeded tasks (reference episodes played once, on first use)."""

    def __init__(self, name: str | Bootcamp, *, n: int | None = None, seed: int = 11,
                 sample_sizes: dict[str, int] | None = None):
        self.bootcamp = get_bootcamp(name) if isinstance(name, str) else name
        settings = getattr(self.bootcamp, "conformance", None) or {}
        env_n = os.environ.get("BC_CONFORMANCE_N")
        self.n = n or (int(env_n) if env_n else int(settings.get("n", DEFAULT_N)))
        self.small_answer_space = settings.get("small_answer_space")
        self.actions = settings.get("actions")  # a decision among k actions (see Signal.baselines_score_low)
        self.seed = seed
        self.tasks = TaskSet(self.bootcamp, seed=seed, split="conformance")
        self._rows: list[dict[str, Any]] | None = None
        self._episodes: list[dict[str, Any]] | None = None
        self._wrong: list[dict[str, Any]] | None = None
        self.signal = Signal(self.bootcamp, seed=seed, sample_sizes=sample_sizes)

    def check(self, name: str) -> None:
        """Run the check called `name` (an attack check or a signal check); ConformanceError when it fails."""
        if name in SIGNAL_CHECKS:
            return getattr(self.signal, name)()
        if name not in ATTACK_CHECKS:
            raise ValueError(f"unknown conformance check {name!r}; checks: {', '.join(CHECKS)}")
        return getattr(self, name)()

    # -- shared fixtures ---------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.bootcamp.name

    @property
    def reward(self) -> Any:
        return self.bootcamp.reward

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            self._rows = [self.tasks[i] for i in range(self.n)]
        return self._rows

    def episodes(self) -> list[dict[str, Any]]:
        """The reference policy's trajectory on every task (played once)."""
        if self._episodes is None:
            self._episodes = self._play(self.rows(), wrong=False)
        return self._episodes

    def wrong_episodes(self) -> list[dict[str, Any]]:
        if self._wrong is None:
            self._wrong = self._play(self.rows()[: min(50, self.n)], wrong=True)
        return self._wrong

    def _play(self, rows: list[dict[str, Any]], *, wrong: bool) -> list[dict[str, Any]]:
        envs = Environments(bootcamps=[self.bootcamp])

        async def run_all() -> list[dict[str, Any]]:
            sem = asyncio.Semaphore(32)

            async def one(row: dict[str, Any]) -> dict[str, Any]:
                async with sem:
                    return await reference_trajectory(row, envs.get(row["data_source"]), wrong=wrong)

            return list(await asyncio.gather(*(one(r) for r in rows)))

        return asyncio.run(run_all())

    def _fail(self, check: str, message: str) -> ConformanceError:
        return ConformanceError(f"{self.name}: {check}: {message}")

    def _score(self, answer: Any, identity: Any) -> float:
        if isinstance(answer, tuple):
            answer = [orjson.loads(a) if isinstance(a, bytes) else a for a in answer]
        return float(self.reward.verify_score(answer, identity))

    # -- checks ------------------------------------------------------------------------------------------------
    def reference_scores_one(self) -> None:
        """The reference policy, played through the rollout loop, completes and scores 1.0 on every task."""
        bad = [(t["task_id"], t["status"], t["score"], t["error"]) for t in self.episodes()
               if t["status"] != "completed" or t["score"] != 1.0]
        if bad:
            raise self._fail("reference_scores_one", f"{len(bad)} of {self.n} tasks not solved, e.g. {bad[:3]}")

    def reference_uses_tools(self) -> None:
        """A bootcamp with tools has a reference that calls them (a tool nobody needs is not a tool task)."""
        if not (self.bootcamp.tools or self.bootcamp.tool_config):
            return
        silent = [t["task_id"] for t in self.episodes() if t["tools"] and not t["num_turns"]["tool_calls"]]
        if silent:
            raise self._fail("reference_uses_tools", f"no tool call on {len(silent)} tasks, e.g. {silent[:3]}")
        failed = [(t["task_id"], turn["error"]) for t in self.episodes() for turn in t["turns"]
                  if turn["type"] == "tool" and turn.get("error")]
        if failed:
            raise self._fail("reference_uses_tools", f"the reference's tool calls fail: {failed[:3]}")

    def no_reward_for_calling_tools(self) -> None:
        """Step rewards are never positive: calling a tool earns nothing by itself."""
        for t in self.episodes() + self.wrong_episodes():
            positive = [r for r in t["reward"]["step_rewards"] if r > 0]
            if positive:
                raise self._fail("no_reward_for_calling_tools", f"{t['task_id']}: step rewards {positive}")

    def corrupted_answers_score_below_one(self) -> None:
        """Wrong answers (the policy's `wrong=True`), no answer, half an answer, a mangled answer: all < 1.0."""
        for t in self.wrong_episodes():
            if t["score"] >= 1.0:
                raise self._fail("corrupted_answers_score_below_one",
                                 f"{t['task_id']}: a deliberately wrong episode scores {t['score']}")
        for row, t in zip(self.rows()[:50], self.episodes()[:50], strict=False):
            identity = row["reward_model"]["ground_truth"]
            right = final_assistant_text(t["messages"])
            for label, text in (("empty", ""), ("truncated", right[: len(right) // 2]),
                                ("mangled", right.replace("{", "(").replace("<", "[").replace("```", "'''"))):
                if self.reward.grades == "all":
                    texts = assistant_texts(t["messages"])
                    candidate: Any = texts[:-1] + [text] if texts else [text]
                else:
                    candidate = text
                if text != right and self._score(candidate, identity) >= 1.0:
                    raise self._fail("corrupted_answers_score_below_one",
                                     f"{row['id']}: a {label} answer scores 1.0: {text[:200]!r}")

    def identity_survives_json(self) -> None:
        """Scores are the same after the identity's JSON round trip (rows travel as JSON and parquet)."""
        for row, t in zip(self.rows()[:50], self.episodes()[:50], strict=False):
            identity = row["reward_model"]["ground_truth"]
            again = orjson.loads(orjson.dumps(identity))
            if self._score(_answer_key(t, self.reward.grades), again) != t["score"]:
                raise self._fail("identity_survives_json", f"{row['id']}: the score changes after a JSON round trip")

    def generation_deterministic_and_varied(self) -> None:
        """Same seed, same rows; another seed, other rows; > 90% distinct identities."""
        again = TaskSet(self.bootcamp, seed=self.seed, split="conformance")
        sample = range(0, self.n, max(1, self.n // 20))
        if any(again[i] != self.rows()[i] for i in sample):
            raise self._fail("generation_deterministic_and_varied", "the same seed gives other rows")
        other = TaskSet(self.bootcamp, seed=self.seed + 1, split="conformance")
        if all(other[i] == self.rows()[i] for i in range(min(20, self.n))):
            raise self._fail("generation_deterministic_and_varied", "another seed gives the same rows")
        identities = {orjson.dumps(r["reward_model"]["ground_truth"], option=orjson.OPT_SORT_KEYS)
                      for r in self.rows()}
        if len(identities) <= self.n * 0.9:
            raise self._fail("generation_deterministic_and_varied",
                             f"only {len(identities)} distinct identities in {self.n} rows")

    def prompt_does_not_give_the_answer(self) -> None:
        """The prompt itself scores < 1.0, and the reference's final answer is not a substring of it."""
        for row, t in zip(self.rows(), self.episodes(), strict=False):
            prompt = "\n".join(_text(m.get("content")) for m in row["prompt"])
            identity = row["reward_model"]["ground_truth"]
            if self._score(prompt, identity) >= 1.0:
                raise self._fail("prompt_does_not_give_the_answer", f"{row['id']}: the prompt scores 1.0")
            final = final_assistant_text(t["messages"]).strip()
            if final and final in prompt:
                raise self._fail("prompt_does_not_give_the_answer", f"{row['id']}: the answer is in the prompt")

    def cross_instance_answers(self) -> None:
        """The reference's answer for task i, graded against task j != i, scores 1.0 on at most 2% of pairs (a
        decision among k actions: on at most 1/k + the decision margin, as a constant answer may earn there)."""
        rows, episodes = self.rows(), self.episodes()
        n = len(rows)
        if n < 2:
            return
        pairs = [(i, (i + k) % n) for k in range(1, n) for i in range(n)][:1000]
        hits = [(rows[i]["id"], rows[j]["id"]) for i, j in pairs
                if self._score(_answer_key(episodes[i], self.reward.grades),
                               rows[j]["reward_model"]["ground_truth"]) >= 1.0]
        limit = 1 / int(self.actions) + THRESHOLDS.decision_success_margin if self.actions else MAX_SHARE
        # one pair of tasks that share their answer is two hits (i solves j, j solves i): at a small n that one
        # coincidence says nothing, as one hit says nothing to most_frequent_answer
        if len(hits) > max(2, limit * len(pairs)):
            raise self._fail("cross_instance_answers", f"{len(hits)} of {len(pairs)} answers of one task solve "
                                                       f"another (limit {limit:.0%}), e.g. {hits[:3]}")

    def most_frequent_answer(self) -> None:
        """The most frequent reference answer solves at most 2% of the tasks (a constant answer must not pay);
        with a stated small answer space, the answers must instead be balanced."""
        answers = Counter(_answer_key(t, self.reward.grades) for t in self.episodes())
        answer, count = answers.most_common(1)[0]
        if self.small_answer_space:
            share = count / self.n
            if share > max(0.6, 1.5 / len(answers)):
                raise self._fail("most_frequent_answer", f"small answer space ({self.small_answer_space}) but "
                                                         f"unbalanced: {answer!r} is {share:.0%} of the answers")
            return
        hits = sum(self._score(answer, r["reward_model"]["ground_truth"]) >= 1.0 for r in self.rows())
        if hits > max(1, MAX_SHARE * self.n):  # it solves its own task: that one hit says nothing when n < 50
            raise self._fail("most_frequent_answer", f"the answer {str(answer)[:120]!r} solves {hits} of {self.n}")

    def hostile_text(self) -> None:
        """verify_score on hostile text returns within 50 ms and never raises."""
        for row in self.rows()[:3]:
            identity = row["reward_model"]["ground_truth"]
            for text in HOSTILE_TEXTS:
                best = float("inf")
                for _ in range(3):  # best of three: a noisy machine, not the verifier, makes single outliers
                    started = time.perf_counter()
                    try:
                        score = self.reward.verify_score(text, identity)
                    except Exception as exc:
                        raise self._fail("hostile_text", f"verify_score raised {type(exc).__name__} on "
                                                         f"{text[:40]!r}...: {exc}") from None
                    best = min(best, time.perf_counter() - started)
                    if best <= HOSTILE_BUDGET_S:
                        break
                if best > HOSTILE_BUDGET_S:
                    raise self._fail("hostile_text", f"verify_score took {best * 1000:.0f} ms on {text[:40]!r}...")
                if not 0.0 <= score <= 1.0:
                    raise self._fail("hostile_text", f"score {score} outside [0, 1]")

    def tool_schemas(self) -> None:
        """Every tool schema is an OpenAI function schema with a description."""
        for spec in self.bootcamp.tool_specs():
            check_function_schema(spec.tool_schema, f"{self.name}: {spec.class_name}")
            if not spec.tool_schema["function"].get("description"):
                raise self._fail("tool_schemas", f"tool {spec.name!r} has no description")

    def yaml_class_names_inside_package(self) -> None:
        """Every `class_name` a YAML file of the bootcamp names lies inside the bootcamp's own package."""
        folder = self.folder()
        if folder is None:
            return
        package = self.bootcamp.package
        for path in sorted(folder.rglob("*.y*ml")):
            for found in re.findall(r"class_name:\s*['\"]?([\w.:]+)", path.read_text(errors="replace")):
                if not (found == package or found.startswith(package + ".") or found.startswith(package + ":")):
                    raise self._fail("yaml_class_names_inside_package",
                                     f"{path}: class_name {found} lies outside {package}")

    def readme(self) -> None:
        """A README in the bootcamp's folder that names its tools and its groups."""
        folder = self.folder()
        if folder is None:
            return
        readme = folder / "README.md"
        if not readme.is_file():
            raise self._fail("readme", f"no README.md in {folder}")
        text = readme.read_text(errors="replace")
        if len(text) < 400:
            raise self._fail("readme", f"{readme} is too short to say what the agent faces, the tools, the reward, "
                                       "the difficulty knobs and an example")
        missing = [s.name for s in self.bootcamp.tool_specs() if s.name not in text]
        missing += [g.name for g in self.bootcamp.groups if g.name not in text]
        if missing:
            raise self._fail("readme", f"{readme} does not mention {missing}")

    def folder(self) -> Path | None:
        """The bootcamp's own folder (None for a registry bootcamp built from YAML files)."""
        module = sys.modules.get(self.bootcamp.package)
        path = getattr(module, "__file__", None)
        return Path(path).parent if path and path.endswith("__init__.py") else None

    def run(self, checks: tuple[str, ...] = CHECKS) -> list[tuple[str, str | None]]:
        """Run `checks`; (check, None) for a pass, (check, message) for a failure."""
        results = []
        for check in checks:
            try:
                self.check(check)
                results.append((check, None))
            except ConformanceError as exc:
                results.append((check, str(exc)))
        return results


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


_CACHE: dict[str, Conformance] = {}


def conformance_for(name: str, sample_sizes: dict[str, int] | None = None) -> Conformance:
    """The shared `Conformance` of a bootcamp (its episodes are played once per process)."""
    if name not in _CACHE:
        _CACHE[name] = Conformance(name, sample_sizes=sample_sizes)
    return _CACHE[name]


def known_issues(name: str) -> dict[str, str]:
    """The checks a bootcamp declares it fails (`Bootcamp.conformance["known_issues"]`: check -> reason)."""
    from ..catalog import load

    manifest = load(name)
    return dict((getattr(manifest, "conformance", None) or {}).get("known_issues") or {})


def pytest_suite(names: list[str] | None = None, expected: dict[str, dict[str, str]] | None = None,
                 sample_sizes: dict[str, dict[str, int]] | None = None) -> Any:
    """A pytest test function parametrized over (bootcamp, check): assign it to a `test_*` name. A check the
    bootcamp lists in its known issues, or `expected[bootcamp][check]` gives a reason for, is an expected
    failure (xfail) with that reason. `sample_sizes[bootcamp]` sets `signal_n` / `distinct_n` where the
    manifest does not (slow generators in a CI budget)."""
    import importlib.util

    import pytest

    # under pytest-xdist's `--dist loadgroup`, a bootcamp's checks share one worker and so its cached runs
    grouped = importlib.util.find_spec("xdist") is not None
    params = []
    for bootcamp in (names if names is not None else selected_bootcamps()):
        issues = {**(expected or {}).get(bootcamp, {}), **known_issues(bootcamp)}
        for check in CHECKS:
            marks = [pytest.mark.xfail(reason=f"known issue: {issues[check]}", strict=False)] \
                if check in issues else []
            if grouped:
                marks.append(pytest.mark.xdist_group(bootcamp))
            params.append(pytest.param(bootcamp, check, marks=marks, id=f"{bootcamp}-{check}"))

    @pytest.mark.parametrize(("bootcamp", "check"), params)
    def test_conformance(bootcamp: str, check: str) -> None:
        conformance_for(bootcamp, (sample_sizes or {}).get(bootcamp)).check(check)

    return test_conformance


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or selected_bootcamps()
    failed = 0
    for name in names:
        issues = known_issues(name)
        for check, problem in Conformance(name).run():
            if check in issues:
                print(f"{'xfail' if problem else 'xpass'} {name} {check}: known issue: {issues[check]}")
                continue
            print(f"{'FAIL' if problem else 'ok  '} {name} {check}{': ' + problem if problem else ''}")
            failed += bool(problem)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
