"""gm/<puzzle>: the verifier replays the assistant's own tool calls by the tool's rules (any solving sequence within
the budget scores 1, one past it 0), the tool and the replay agree move for move, hostile arguments get a typed
error, and each puzzle's optimum is exact (checked against plain breadth-first search on small instances)."""
from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import pytest

from bc_common.bootcamp import tool_call
from bc_common.catalog import get_bootcamp
from bc_common.errors import ToolError
from bc_common.tasks import TaskSet
from bootcamps.gm.collection import classes
from bootcamps.gm.core import astar, replay
from bootcamps.gm.known_issues import WITHHELD
from bootcamps.gm.puzzles import PUZZLES
from bootcamps.gm.puzzles.sliding_tile import _layers

OFFERED = sorted(n for n in PUZZLES if n not in WITHHELD)


def _row(name: str, index: int = 0, group: str = "easy") -> dict:
    return TaskSet(get_bootcamp(f"gm/{name}"), seed=5, split="test", groups=[group])[index]


def _messages(tool: str, moves: list[dict]) -> list[dict]:
    return [{"role": "assistant", "content": "", "tool_calls": [tool_call(f"c{i}", tool, m)]}
            for i, m in enumerate(moves)]


@pytest.mark.parametrize("name", OFFERED)
def test_any_solution_within_the_budget_scores_and_one_past_it_does_not(name: str) -> None:
    made = classes(name)
    p, reward = made["generator"].puzzle, made["reward"]
    inst = _row(name)["reward_model"]["ground_truth"]
    start = p.start(inst)
    path = list(p.path(inst, start))
    assert len(path) == inst["optimum"] and inst["budget"] > inst["optimum"]
    # a detour first: a move that does not shorten the way, then a shortest way from there (peg solitaire has
    # none: every jump removes a peg, so every solution is as long)
    detours = [a for a, s in p.neighbours(inst, start) if (p.distance(inst, s) or -1) >= inst["optimum"]]
    tool = p.tool
    assert reward.verify_score(_messages(tool, [p.args(a) for a in path]), inst) == 1.0
    if detours:
        longer = [detours[0], *p.path(inst, p.step(inst, start, detours[0]))]
        assert longer != path
        score = reward.verify_score(_messages(tool, [p.args(a) for a in longer]), inst)
        assert score == (1.0 if len(longer) <= inst["budget"] else 0.0)
    # refused moves spend the budget: enough of them first and the right moves come too late
    refused = p.refused_args(inst, start)
    if refused is not None:
        wasted = [refused] * (inst["budget"] - len(path) + 1)
        assert reward.verify_score(_messages(tool, wasted + [p.args(a) for a in path]), inst) == 0.0
    # half the way, a text claiming the solve, the moves as prose: 0
    assert reward.verify_score(_messages(tool, [p.args(a) for a in path[:-1]]), inst) == 0.0
    assert reward.verify_score("Solved! " + str([p.args(a) for a in path]), inst) == 0.0


@pytest.mark.parametrize("name", OFFERED)
def test_tool_and_replay_agree_and_hostile_arguments_get_typed_errors(name: str) -> None:
    made = classes(name)
    p, tool = made["generator"].puzzle, made["tool"]()
    inst = _row(name, 1)["reward_model"]["ground_truth"]
    rng = random.Random(7)

    async def play() -> list[dict]:
        iid = await tool.create(identity=inst)
        sent = []
        state = p.start(inst)
        for k in range(inst["budget"] + 2):
            legal = p.legal(inst, state)
            if (k % 3 == 2 or not legal) and p.refused_args(inst, state) is not None:
                args = p.refused_args(inst, state)
            elif legal:
                args = p.args(rng.choice(legal))
            else:
                break
            sent.append(args)
            try:
                await tool.execute(iid, args)
            except ToolError:
                pass
            state = tool.state(iid)["state"]
            game = replay(p, inst, _messages(p.tool, sent))
            assert game.state == state and game.spent == tool.state(iid)["spent"]
        await tool.release(iid)
        return sent

    asyncio.run(play())

    async def hostile() -> None:
        iid = await tool.create(identity=inst)
        for key, schema in p.parameters.items():
            bad = {**{k: (v.get("enum") or [1])[0] for k, v in p.parameters.items()}}
            bad[key] = 10**9 if schema["type"] == "integer" else bad[key]
            try:
                await tool.execute(iid, bad)
            except ToolError as exc:
                assert exc.kind and str(exc)
        with pytest.raises(ToolError):
            await tool.create(identity={"puzzle": "other"})

    asyncio.run(hostile())


def test_lights_out_chasing_is_the_fewest_presses() -> None:
    p = PUZZLES["lights_out"]()
    rng = random.Random(3)
    for n, tries in ((3, 12), (4, 2)):
        inst = {"size": n, "lights": ["0" * n] * n}
        for _ in range(tries):
            state = rng.getrandbits(n * n)
            found = p.optimal_path(inst, state)
            bfs = astar(state, lambda s, i=inst: p.neighbours(i, s), lambda s: s == 0, lambda s: 0, 10**6)
            assert (found is None) == (bfs is None)
            if found is not None:
                assert len(found) == len(bfs)


def test_pancake_optimum_matches_breadth_first_search() -> None:
    rng = random.Random(4)
    pan = PUZZLES["pancake"]()
    for _ in range(10):
        stack = list(range(1, 7))
        rng.shuffle(stack)
        inst = {"stack": stack}
        s = pan.start(inst)
        bfs = astar(s, lambda x, i=inst: pan.neighbours(i, x), lambda x, i=inst: pan.solved(i, x), lambda x: 0, 10**6)
        assert len(pan.optimal_path(inst, s)) == len(bfs)


def test_sliding_tile_table_matches_a_star() -> None:
    tile = PUZZLES["sliding_tile"]()
    inst = {"board": [0] * 9}
    for d, boards in _layers().items():
        if d in (0, 5, 12):
            b = boards[len(boards) // 2]
            bfs = astar(b, lambda x: tile.neighbours(inst, x), lambda x: tile.solved(inst, x),
                        lambda x: tile.estimate(inst, x), 10**6)
            assert len(bfs) == d == len(tile.optimal_path(inst, b))


def test_declared_space_sizes_are_the_tables_layers() -> None:
    from bootcamps.gm.puzzles.hanoi import Hanoi, _layer

    for group, params in Hanoi.groups.items():
        counted = sum(len(_layer(params["discs"], t, params["min_optimum"], params["max_optimum"]))
                      for t in range(1, 5))
        assert Hanoi.space_size[group] == counted
    layers = _layers()
    for group, params in PUZZLES["sliding_tile"].groups.items():
        counted = sum(len(layers[d]) for d in range(params["min_optimum"], params["max_optimum"] + 1))
        assert PUZZLES["sliding_tile"].space_size[group] == counted


def test_switch_board_table_is_the_fewest_presses() -> None:
    board = PUZZLES["switch_board"]()
    knobs = SimpleNamespace(switches=7, bulbs=8, wires=3, min_optimum=2, max_optimum=5)
    rng = random.Random(6)
    drawn = [inst for inst in (board.draw(knobs, rng) for _ in range(6)) if inst is not None]
    assert len(drawn) >= 3
    for inst in drawn:
        s = board.start(inst)
        bfs = astar(s, lambda x, i=inst: board.neighbours(i, x), lambda x: x == 0, lambda x: 0, 10**6)
        assert len(bfs) == board.distance(inst, s) == len(board.optimal_path(inst, s))


def test_jump_line_and_blocks_world_optima_match_breadth_first_search() -> None:
    rng = random.Random(8)
    line, blocks = PUZZLES["jump_line"](), PUZZLES["blocks_world"]()
    for _ in range(5):
        inst = {"row": "RRB.B.R", "target": "".join(rng.sample("RRB.B.R", 7))}
        s = line.start(inst)
        bfs = astar(s, lambda x, i=inst: line.neighbours(i, x), lambda x, i=inst: line.solved(i, x), lambda x: 0,
                    10**6)
        assert len(bfs) == line.distance(inst, s)
        letters = rng.sample("ABCDE", 5)
        inst = {"stacks": ["".join(letters[:2]), "".join(letters[2:]), ""],
                "goal": ["".join(letters[4:]), "", "".join(letters[:4])]}
        s = blocks.start(inst)
        bfs = astar(s, lambda x, i=inst: blocks.neighbours(i, x), lambda x, i=inst: blocks.solved(i, x),
                    lambda x: 0, 10**6)
        assert len(bfs) == len(blocks.optimal_path(inst, s))


def test_dial_lock_table_matches_breadth_first_search() -> None:
    from bootcamps.gm.core import bfs_distances
    from bootcamps.gm.puzzles.dial_lock import _table, _turn

    moves = [(d, s) for d in range(1, 5) for s in (1, -1)]
    for k, gears in ((5, ((1,), (2,), (3,), (0,))), (6, ((2, 3), (0, 2), (1, 3), (0, 1)))):
        bfs = bfs_distances([(0,) * 4], lambda st, k=k, g=gears: [_turn(st, k, g, m) for m in moves])
        assert _table(4, k, gears) == bfs


def test_knight_swap_table_matches_breadth_first_search() -> None:
    from bootcamps.gm.core import bfs_distances
    from bootcamps.gm.puzzles.knight_swap import _goal, _table

    knights = PUZZLES["knight_swap"]()
    goals = ("w..b", "....", "b..w")
    inst = {"knights": ["W..B", "....", "B..W"], "goals": list(goals)}
    bfs = bfs_distances([_goal(goals)], lambda s: [n for _, n in knights.neighbours(inst, s)])
    assert _table(goals) == bfs and len(bfs) == 2970
