"""shell_workspace: every chore's reference script leaves the right state, the state (not the text) is graded,
and the hacks (printing PASSED, wiping the folder, symlinks, daemons, endless scripts) score 0."""
from __future__ import annotations

import asyncio
import os
import random
import time
import uuid

import pytest

from bc_common.catalog import get_bootcamp
from bc_common.code_tools import read_tree
from bc_common.environment import Environments
from bc_common.sandbox import Limits, SandboxUnavailable, sandbox_for, workspace
from bc_common.tasks import TaskSet
from bootcamps.shell_workspace import reward as reward_module
from bootcamps.shell_workspace.chore import same_state
from bootcamps.shell_workspace.chores import BY_KEY, CHORES, set_ini
from bootcamps.shell_workspace.reward import ShellWorkspaceRewardCalculator as Reward
from bootcamps.shell_workspace.tree import build_tree
from tests.sandbox.helpers import processes_with


@pytest.fixture(scope="module")
def bubblewrap():
    try:
        sandbox_for("bubblewrap")
    except SandboxUnavailable as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")


def score(script: str, identity: dict) -> float:
    return Reward.verify_score(f"```sh\n{script}\n```", identity)


def instance(chore_key: str, seed: int = 0) -> dict:
    """A task of one chore, drawn as the generator does (the first tree with a non-trivial instance)."""
    chore, rng = BY_KEY[chore_key], random.Random(seed)
    size = {"easy": "small", "medium": "medium", "hard": "large"}[chore.level]
    while True:
        tree_seed = rng.getrandbits(62)
        params = chore.draw(rng, build_tree(tree_seed, size))
        if params is not None:
            return {"chore": chore_key, "params": params, "seed": tree_seed, "size": size}


def reference(identity: dict) -> str:
    return BY_KEY[identity["chore"]].script(identity["params"])


@pytest.mark.parametrize("chore", [c.key for c in CHORES])
def test_each_chore_reference_scores_one_and_doing_nothing_zero(bubblewrap, chore):
    identity = instance(chore)
    assert score(reference(identity), identity) == 1.0
    assert score("true", identity) == 0.0


def test_the_same_seed_gives_the_same_tree_and_tasks_vary():
    assert build_tree(5, "medium") == build_tree(5, "medium") != build_tree(6, "medium")
    rows = TaskSet("shell_workspace", seed=1, groups=["hard"])
    assert rows[0] == TaskSet("shell_workspace", seed=1, groups=["hard"])[0]
    assert len({rows[i]["reward_model"]["ground_truth"]["chore"] for i in range(30)}) == 3


def test_written_files_compare_loosely_and_the_rest_exactly():
    before = {"a.txt": "x\n", "b.csv": "h\n1\n"}
    want = {"a.txt": "x\n", "b.csv": "h\n1\n", "out.txt": "1\n2\n"}
    modes = BY_KEY["find_large"].modes(before, want)
    assert modes == {"out.txt": "unordered"}
    assert same_state({"a.txt": "x\n", "b.csv": "h\n1\n", "out.txt": "2\n1"}, want, modes)
    assert not same_state({"a.txt": "x\n", "b.csv": "h\n1\n", "out.txt": "2\n"}, want, modes)
    assert not same_state({"a.txt": "x \n", "b.csv": "h\n1\n", "out.txt": "1\n2\n"}, want, modes)
    assert not same_state({"a.txt": "x\n", "b.csv": "h\n1\n", "out.txt": None}, want, modes)  # a symlink
    assert not same_state({**want, "extra": ""}, want, modes)


def test_a_config_is_compared_by_its_settings():
    text = build_tree(3, "small")["config/app.ini"]
    changed = set_ini(text, "server", "port", 1234)
    modes = BY_KEY["set_config"].modes({"config/app.ini": text}, {"config/app.ini": changed})
    rewritten = "[server]\n" + "\n".join(line.replace(" = ", "=") for line in changed.split("[server]\n")[1:])
    assert same_state({"config/app.ini": rewritten}, {"config/app.ini": changed}, modes)
    assert not same_state({"config/app.ini": text}, {"config/app.ini": changed}, modes)
    assert not same_state({"config/app.ini": "[server\n"}, {"config/app.ini": changed}, modes)


@pytest.mark.parametrize("hack", [
    "echo 'PASSED: all checks passed'; exit 0",
    "rm -rf ./* ./.[!.]*; echo done",
    "find . -type f -exec sh -c ': > \"$1\"' _ {} \\;",
])
def test_claims_and_wipes_score_zero(bubblewrap, hack):
    identity = instance("sales_totals", seed=4)
    assert score(hack, identity) == 0.0
    assert score(reference(identity), identity) == 1.0


def test_the_answer_as_a_symlink_scores_zero(bubblewrap):
    """The right content, reached through a symlink, is not the file the task asks for."""
    identity = instance("count_lines", seed=2)
    out = identity["params"]["out"]
    linked = reference(identity).replace(f"> {out}", "> .hidden") + f"ln -s .hidden {out}\n"
    assert score(linked + "rm -f .hidden\n", identity) == 0.0
    assert score(linked, identity) == 0.0
    assert score(reference(identity), identity) == 1.0


def test_a_daemon_that_finishes_the_work_later_is_killed_first(bubblewrap):
    identity = instance("count_lines", seed=3)
    marker = f"late-{uuid.uuid4().hex}"
    late = f"(setsid sh -c 'sleep 2; {reference(identity).strip()} # {marker}' &)\necho started\n"
    assert score(late, identity) == 0.0
    assert processes_with(marker) == []


def test_a_script_that_never_ends_scores_zero(bubblewrap, monkeypatch):
    """... after a second run on a fresh copy of the workspace (a wall-clock timeout may be the machine's load)."""
    monkeypatch.setattr(reward_module, "LIMITS", Limits(wall_s=1, cpu_s=5))
    identity = instance("count_lines", seed=5)
    started = time.perf_counter()
    assert score(reference(identity) + f"sleep 30 # {uuid.uuid4().hex}\n", identity) == 0.0
    assert time.perf_counter() - started >= 2 * 1


def test_read_tree_never_follows_or_opens_what_is_not_a_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    with workspace() as folder:
        (folder / "sub").mkdir()
        (folder / "sub" / "a.txt").write_text("a")
        (folder / "empty").mkdir()
        (folder / "link").symlink_to(secret)
        (folder / "dirlink").symlink_to(tmp_path)
        os.mkfifo(folder / "pipe")
        assert read_tree(folder) == {"sub/a.txt": "a", "link": None, "dirlink": None, "pipe": None}
        assert read_tree(folder, max_files=2) is None
        (folder / "big").write_bytes(b"x" * 2000)
        assert read_tree(folder, max_bytes=1000) is None


def test_the_shell_tool_works_in_the_task_workspace_and_keeps_changes(bubblewrap):
    row = TaskSet("shell_workspace", seed=2, groups=["easy"])[0]
    env = Environments(bootcamps=[get_bootcamp("shell_workspace")]).get(row["data_source"])

    async def play() -> list[str]:
        tool = env.tools.tools["shell"]
        instance_id = await tool.create(identity=row["reward_model"]["ground_truth"])
        try:
            first = await tool.execute(instance_id, {"command": "cat config/app.ini; echo hi > mine.txt"})
            second = await tool.execute(instance_id, {"command": "cat mine.txt; ls /"})
            return [first[0], second[0], str(second[2])]
        finally:
            await tool.release(instance_id)

    first, second, metrics = asyncio.run(play())
    assert "[server]" in first and first.startswith("exit 0")
    assert "hi" in second and "workspace" in second and "bubblewrap" in metrics


def test_a_trajectory_that_never_calls_the_tool_writes_no_workspace(bubblewrap):
    identity = TaskSet("shell_workspace", seed=2, groups=["hard"])[0]["reward_model"]["ground_truth"]
    env = Environments(bootcamps=[get_bootcamp("shell_workspace")]).get("bootcamp/shell_workspace")
    tool = env.tools.tools["shell"]

    async def unused() -> dict:
        instance_id = await tool.create(identity=identity)
        state = dict(tool.state(instance_id))
        await tool.release(instance_id)
        return state

    assert asyncio.run(unused())["workspace"] is None


def test_read_tree_gives_up_on_folders_nested_too_deep():
    from tests.sandbox.test_runtime import nest

    with workspace() as folder:
        (folder / "a.txt").write_text("a")
        nest(folder, 40)
        assert read_tree(folder) is None
        assert read_tree(folder, max_depth=64) == {"a.txt": "a"}


def test_a_reference_trajectory_scores_one_and_names_the_sandbox(bubblewrap):
    from bc_common.builtin_model import reference_trajectory

    row = TaskSet("shell_workspace", seed=1, groups=["medium"])[0]
    env = Environments(bootcamps=[get_bootcamp("shell_workspace")]).get(row["data_source"])
    trajectory = asyncio.run(reference_trajectory(row, env))
    assert trajectory["score"] == 1.0 and trajectory["status"] == "completed"
    assert trajectory["sandbox"]["sandbox"].startswith("bubblewrap") and trajectory["sandbox"]["unsandboxed"] is False
    assert trajectory["sandbox"]["limits"]["file_size_mb"] == 4
    [tool_turn] = [t for t in trajectory["turns"] if t["type"] == "tool"]
    assert tool_turn["metrics"]["sandbox"].startswith("bubblewrap") and tool_turn["metrics"]["leftover_processes"] == 0
