"""The three visual bootcamps' verifiers, tools and generators, beyond the conformance suite: every correct answer
accepted, near misses refused, the properties each question relies on hold on every generated task."""
from __future__ import annotations

import asyncio
import itertools
import random
from collections import deque

import pytest

from bc_common.errors import ToolError
from bc_common.tasks import TaskSet
from bootcamps.chart_read.generator import steady
from bootcamps.chart_read.reward import ChartReadRewardCalculator as ChartReward
from bootcamps.container_water.reward import ContainerWaterRewardCalculator as WaterReward
from bootcamps.container_water.solver import max_area
from bootcamps.container_water.tools import MeasureBarTool
from bootcamps.grid_maze.maze import MOVES, decode, distances
from bootcamps.grid_maze.reward import GridMazeRewardCalculator as MazeReward
from bootcamps.grid_maze.tools import LookTool


def test_chart_questions_have_one_readable_answer():
    tasks = TaskSet("chart_read", seed=21)
    for i in range(300):
        ident = tasks[i]["reward_model"]["ground_truth"]
        q, series = ident["question"], ident["series"]
        names = [s["name"] for s in series]
        assert len(set(names)) == len(names)
        assert all(5 <= v <= 99 for s in series for v in s["values"])
        if q["type"] == "largest":
            at = ident["x"].index(q["x"])
            ranked = sorted(((s["values"][at], s["name"]) for s in series), reverse=True)
            assert f"{ranked[0][1]} {ranked[0][0]}" == ident["answer"] and ranked[0][0] - ranked[1][0] >= 3
        elif q["type"] == "trend":
            found = [(s["name"], steady(s["values"]), str(abs(s["values"][-1] - s["values"][0])))
                     for s in series if steady(s["values"])]
            assert len(found) == 1 and " ".join(found[0]) == ident["answer"]
        else:
            a = next(s for s in series if s["name"] == q["a"])["values"][ident["x"].index(q["x_a"])]
            b = next(s for s in series if s["name"] == q["b"])["values"][ident["x"].index(q["x_b"])]
            assert str(a - b) == ident["answer"]


@pytest.mark.parametrize("text, score", [
    ("<answer>-51</answer>", 1.0), ("<answer> −51 </answer>", 1.0), ("<answer>-51.0</answer>", 1.0),
    ("<answer>51</answer>", 0.0), ("<answer>-5 1</answer>", 0.0), ("-51", 0.0),
])
def test_chart_difference_answers(text, score):
    ident = {"question": {"type": "difference"}, "answer": "-51"}
    assert ChartReward.verify_score(text, ident) == score


@pytest.mark.parametrize("text, score", [
    ("<answer>Oak increasing</answer>", 1.0), ("<answer> oak  INCREASING. </answer>", 1.0),
    ("<answer>Oak</answer>", 0.0), ("<answer>Oak decreasing</answer>", 0.0), ("<answer>Elm increasing</answer>", 0.0),
])
def test_chart_trend_answers_of_rows_written_before_answers_held_a_number(text, score):
    ident = {"question": {"type": "trend"}, "answer": "Oak increasing"}
    assert ChartReward.verify_score(text, ident) == score


@pytest.mark.parametrize("text, score", [
    ("<answer>Oak increasing 37</answer>", 1.0), ("<answer> oak  INCREASING 37.0 </answer>", 1.0),
    ("<answer>Oak increasing</answer>", 0.0), ("<answer>Oak increasing 36</answer>", 0.0),
    ("<answer>Oak decreasing 37</answer>", 0.0), ("<answer>Elm increasing 37</answer>", 0.0),
])
def test_chart_trend_answers_hold_the_change(text, score):
    ident = {"question": {"type": "trend"}, "answer": "Oak increasing 37"}
    assert ChartReward.verify_score(text, ident) == score


@pytest.mark.parametrize("text, score", [
    ("<answer>Oak 64</answer>", 1.0), ("<answer>OAK 64.0</answer>", 1.0), ("<answer>Oak</answer>", 0.0),
    ("<answer>Oak 63</answer>", 0.0), ("<answer>Elm 64</answer>", 0.0),
])
def test_chart_largest_answers_hold_the_value(text, score):
    """Issue 23 closed: naming the legend's first series (no values read) scored 0.25 on easy charts of two series."""
    ident = {"question": {"type": "largest"}, "answer": "Oak 64"}
    assert ChartReward.verify_score(text, ident) == score


@pytest.mark.parametrize("name", ["text_only", "legend_first"])
def test_chart_read_baselines_score_low(name):
    """Without the values: at most 5% in every group (measured 0.3-1.3% at n=300; legend_first was 25% on easy)."""
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.environment import Environments

    env = Environments().get("bootcamp/chart_read")
    for group in ("easy", "medium", "hard"):
        tasks = TaskSet("chart_read", seed=5, split="baseline", groups=[group])

        async def scores(tasks=tasks) -> list:
            return [(await baseline_trajectory(tasks[i], env, name))["score"] for i in range(80)]

        assert sum(s >= 1.0 for s in asyncio.run(scores())) <= 4, (name, group)


def test_two_pointers_match_brute_force():
    rng = random.Random(5)
    for _ in range(500):
        heights = [rng.randint(0, 30) for _ in range(rng.randint(2, 25))]
        brute = max((j - i) * min(heights[i], heights[j]) for i, j in itertools.combinations(range(len(heights)), 2))
        area, i, j = max_area(heights)
        assert area == brute == (j - i) * min(heights[i - 1], heights[j - 1])


def test_container_verifier_recomputes_from_the_heights():
    ident = {"heights": [1, 8, 6, 2, 5, 4, 8, 3, 7], "area": 1}  # a wrong stored area is not trusted
    assert WaterReward.verify_score("<answer>49</answer>", ident) == 1.0
    assert WaterReward.verify_score("<answer>1</answer>", ident) == 0.0
    assert WaterReward.verify_score("<answer>49</answer> <answer>48</answer>", ident) == 0.0


def test_measure_bar_tool():
    tool = MeasureBarTool()

    async def go() -> tuple:
        iid = await tool.create(identity={"heights": [3, 9, 4]})  # a row from before tags: bars by number
        text = await tool.execute(iid, {"bar": "2"})
        with pytest.raises(ToolError) as err:
            await tool.execute(iid, {"bar": "4"})
        return text, err.value.kind

    (text, reward, _), kind = asyncio.run(go())
    assert text == "Bar 2 is 9 units tall." and reward == 0.0 and kind == "no_such_bar"


def test_measure_bar_takes_the_pictures_tags_within_a_budget():
    """Issue 23: `measure_bar` on every bar, by number, scored 1.0 on easy and medium without the picture. Bars
    are now named by tags printed only in the picture, and every call, a wrong name too, spends the budget."""
    tool = MeasureBarTool()
    identity = {"heights": [3, 9, 4, 7], "tags": ["KP", "AX", "RT", "ZM"], "measurements": 3}

    async def go() -> list:
        iid = await tool.create(identity=identity)
        out = []
        for bar in ("1", "ax", "ZM", "RT"):
            try:
                out.append((await tool.execute(iid, {"bar": bar}))[0])
            except ToolError as exc:
                out.append(exc.kind)
        return out

    assert asyncio.run(go()) == ["no_such_bar", "Bar AX is 9 units tall.", "Bar ZM is 7 units tall.",
                                 "budget_spent"]


@pytest.mark.parametrize("name", ["text_guess", "blind_measure"])
def test_container_water_blind_baselines_score_low(name):
    """The baselines that never look at the picture: at most 5% in every group (measured 0-1.5% at n=200)."""
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    env = Environments().get("bootcamp/container_water")
    for group in ("easy", "medium", "hard"):
        tasks = TaskSet("container_water", seed=5, split="baseline", groups=[group])

        async def scores(tasks=tasks) -> list:
            return [(await baseline_trajectory(tasks[i], env, name))["score"] for i in range(60)]

        assert sum(s >= 1.0 for s in asyncio.run(scores())) <= 3, (name, group)


def test_measuring_every_bar_by_number_no_longer_solves_a_task():
    """The old cheat, played through the rollout loop: a call for each bar number, then the best area of those
    heights. The numbers name no bar, the budget runs out, and nothing is solved."""
    from bc_common.environment import Environments
    from bc_common.rollout import run_trajectory
    from bc_common.tasks import TaskSet

    class MeasureAll:
        async def complete(self, request):
            from bc_common.model import ModelReply

            n = len(request.task["reward_model"]["ground_truth"]["heights"])
            told = [m for m in request.messages if m.get("role") == "tool"]
            if not told:
                message = {"role": "assistant", "content": "", "tool_calls": [
                    {"id": f"c{k}", "type": "function",
                     "function": {"name": "measure_bar", "arguments": f'{{"bar": {k}}}'}} for k in range(1, n + 1)]}
            else:
                heights = [int(t["content"].split(" is ")[1].split()[0]) for t in told if " is " in t["content"]]
                area = max_area(heights)[0] if len(heights) >= 2 else 0
                message = {"role": "assistant", "content": f"<answer>{area}</answer>"}
            return ModelReply(message, "stop", {}, 0.0)

        async def aclose(self):
            pass

    env = Environments().get("bootcamp/container_water")
    tasks = TaskSet("container_water", seed=6, split="cheat", groups=["easy"])

    async def play() -> list:
        return [(await run_trajectory(tasks[i], 0, MeasureAll(), env, model_name="measure-all"))["score"]
                for i in range(20)]

    assert sum(asyncio.run(play())) == 0


def _all_shortest(open_: list[list[int]], start: tuple, goal: tuple, limit: int = 50) -> list[str]:
    dist = {cell: d for cell, (d, _) in distances(open_, start).items()}
    out, queue = [], deque([(start, "")])
    while queue and len(out) < limit:
        (r, c), path = queue.popleft()
        if (r, c) == goal:
            out.append(path)
            continue
        for d, (dr, dc, bit) in MOVES.items():
            nxt = (r + dr, c + dc)
            if open_[r][c] & bit and dist.get(nxt) == len(path) + 1:
                queue.append((nxt, path + d))
    return out


def test_every_shortest_path_scores_one_and_longer_ones_less():
    tasks = TaskSet("grid_maze", seed=2, groups=["medium"])
    several = 0
    for i in range(40):
        ident = tasks[i]["reward_model"]["ground_truth"]
        open_, start, goal = decode(ident["open"]), tuple(ident["start"]), tuple(ident["goal"])
        paths = _all_shortest(open_, start, goal)
        several += len(paths) > 1
        for path in paths:
            assert MazeReward.verify_score(f"<answer>{' '.join(path)}</answer>", ident) == 1.0
        back = {"U": "D", "D": "U", "L": "R", "R": "L"}
        first = paths[0]
        detour = first[0] + back[first[0]] + first  # a step forth and back, then the path: valid, 2 longer
        assert MazeReward.verify_score(f"<answer>{detour}</answer>", ident) == pytest.approx(
            len(first) / (len(first) + 2))
        assert MazeReward.verify_score(f"<answer>{first.lower()}</answer>", ident) == 1.0
        assert MazeReward.verify_score(f"<answer>{', '.join(first)}</answer>", ident) == 1.0
        assert MazeReward.verify_score(f"<answer>{first[:-1]}</answer>", ident) == 0.0
        assert MazeReward.verify_score(f"<answer>go {first}</answer>", ident) == 0.0
    assert several >= 5  # the extra openings make several shortest paths common


def test_a_path_through_a_wall_scores_zero():
    ident = {"rows": 1, "cols": 3, "open": ["260"], "start": [0, 0], "goal": [0, 2]}  # a wall between 1 and 2
    assert MazeReward.verify_score("<answer>R R</answer>", ident) == 0.0
    assert MazeReward.verify_score("<answer>L</answer>", ident) == 0.0


def test_look_is_offered_in_the_hard_group_only():
    easy = TaskSet("grid_maze", seed=1, groups=["easy"])[0]
    hard = TaskSet("grid_maze", seed=1, groups=["hard"])[0]
    assert easy["extra_info"]["tools_kwargs"] == {} and easy["agent_name"] == "single_turn_agent"
    assert list(hard["extra_info"]["tools_kwargs"]) == ["look"]
    tool = LookTool()

    async def go(identity: dict, r: int, c: int) -> str:
        iid = await tool.create(identity=identity)
        return (await tool.execute(iid, {"row": r, "col": c}))[0]

    ident = hard["reward_model"]["ground_truth"]
    text = asyncio.run(go(ident, 0, 0))
    assert text.splitlines()[0].startswith("(0, 0): open") and len(text.splitlines()) == 4
    with pytest.raises(ToolError, match="outside"):
        asyncio.run(go(ident, 12, 0))
    with pytest.raises(ToolError, match="not available"):
        asyncio.run(go(easy["reward_model"]["ground_truth"], 0, 0))


@pytest.mark.parametrize("name", ["corner_to_corner", "random_moves"])
def test_grid_maze_blind_baselines_score_nothing(name):
    """Move strings written without the picture: no path from S to G in any group (measured 0 of 300)."""
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.environment import Environments

    env = Environments().get("bootcamp/grid_maze")
    for group in ("easy", "medium", "hard"):
        tasks = TaskSet("grid_maze", seed=5, split="baseline", groups=[group])

        async def scores(tasks=tasks) -> list:
            return [(await baseline_trajectory(tasks[i], env, name))["score"] for i in range(60)]

        assert max(asyncio.run(scores())) <= 0.25, (name, group)
