"""`bc-gen --curriculum EVAL.jsonl`: the next round's group mix from per-group pass rates, as deterministic and
shardable as any bc-gen run."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import orjson
import pytest

from bc_common.errors import ConfigError
from bc_common.manifest import Group
from bc_gen.curriculum import Band, GroupRate, next_mix

BIN = Path(sys.executable).parent
GROUPS = [Group("easy", ratio=0.3), Group("medium", ratio=0.5), Group("hard", ratio=0.2), Group("expert", ratio=0)]


def gen(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "bc-gen"), *map(str, args)], capture_output=True)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stderr.decode())
    return proc


def rows(data: bytes) -> list[dict]:
    return [orjson.loads(line) for line in data.splitlines()]


def trajectories(tasks: list[dict], passed: dict[str, float], errors: int = 0) -> bytes:
    """Hand-made trajectories of `tasks`: the first share `passed[group]` of each group's rows succeed; the
    first `errors` rows of each group end in status error (they must not count)."""
    by_group: dict[str, list[dict]] = {}
    for task in tasks:
        by_group.setdefault(task["extra_info"]["generator_name"], []).append(task)
    out = []
    for group, members in by_group.items():
        wins = round(passed[group] * (len(members) - errors))
        for i, task in enumerate(members):
            status = "error" if i < errors else "completed"
            success = status == "completed" and i - errors < wins
            out.append({"id": f"{task['id']}#0", "task_id": task["id"], "input": task, "model": "m", "sample": 0,
                        "messages": [], "score": 1.0 if success else 0.0, "status": status, "success": success})
    return b"".join(orjson.dumps(r) + b"\n" for r in out)


def test_mix_keeps_the_band_and_explores_the_rest():
    rates = {"easy": GroupRate(10, 10), "medium": GroupRate(10, 5), "hard": GroupRate(10, 0)}
    mix = {e.group: (e.weight, e.reason) for e in next_mix(GROUPS, rates, Band(0.2, 0.8), explore=0.1)}
    assert mix == {"easy": (0.1, "too easy"), "medium": (1.0, "in band"), "hard": (0.1, "too hard")}
    # a group out of the default mix comes in once measured; an unmeasured one of the default mix gets a full share
    rates = {"medium": GroupRate(10, 5), "expert": GroupRate(4, 2)}
    mix = {e.group: (e.weight, e.reason) for e in next_mix(GROUPS, rates, Band(0.2, 0.8), explore=0.0)}
    assert mix == {"easy": (1.0, "not measured"), "medium": (1.0, "in band"), "hard": (1.0, "not measured"),
                   "expert": (1.0, "in band")}


def test_without_a_group_in_the_band_the_nearest_takes_a_full_share():
    rates = {"easy": GroupRate(10, 10), "medium": GroupRate(10, 9), "hard": GroupRate(10, 0)}
    mix = {e.group: e.weight for e in next_mix(GROUPS, rates, Band(0.2, 0.8), explore=0.0)}
    assert mix == {"easy": 0.0, "medium": 1.0, "hard": 0.0}
    only = {e.group: e.weight for e in next_mix(GROUPS, rates, Band(0.2, 0.8), explore=0.0, only=["easy", "hard"])}
    assert only == {"easy": 1.0, "hard": 0.0}  # 0.2 from the band each: the first in the manifest's order


def test_band_is_checked():
    assert Band.parse("0.1:0.9") == Band(0.1, 0.9)
    for bad in ("0.8:0.2", "0.2", "a:b", "-0.1:0.5", "0.5:1.5"):
        with pytest.raises(ConfigError, match="--band"):
            Band.parse(bad)


@pytest.fixture(scope="module")
def round1(tmp_path_factory) -> Path:
    """Trajectories of 60 arithmetic tasks: easy all passed, medium half, hard none; 2 errors a group."""
    folder = tmp_path_factory.mktemp("round1")
    tasks = rows(gen("arithmetic", "-n", "60", "--seed", "1").stdout)
    path = folder / "eval.jsonl"
    path.write_bytes(trajectories(tasks, {"easy": 1.0, "medium": 0.5, "hard": 0.0}, errors=2))
    return path


def test_curriculum_mixes_the_next_round_by_pass_rate(round1):
    proc = gen("--curriculum", round1, "-n", "200", "--seed", "2", "--explore", "0.25")  # BOOTCAMP from the file
    groups = Counter(r["extra_info"]["generator_name"] for r in rows(proc.stdout))
    # medium in the band (1), easy and hard outside (0.25 each): 200 rows split 2/3, 1/6, 1/6
    assert groups == {"medium": 133, "easy": 34, "hard": 33} or groups == {"medium": 134, "easy": 33, "hard": 33}
    err = proc.stderr.decode()
    assert "medium: pass rate 0.50 (28 graded), in band -> share 0.67" in err  # errors are not graded
    assert "easy: pass rate 1.00" in err and "too easy" in err and "hard: pass rate 0.00" in err
    dropped = gen("arithmetic", "--curriculum", round1, "-n", "30", "--seed", "2", "--explore", "0").stdout
    assert {r["extra_info"]["generator_name"] for r in rows(dropped)} == {"medium"}


def test_curriculum_rows_are_deterministic_and_shardable(round1):
    args = ("arithmetic", "--curriculum", round1, "-n", "90", "--seed", "2")
    full = gen(*args).stdout
    assert gen(*args).stdout == full and gen(*args, "-j", "2").stdout == full
    parts = [rows(gen(*args, "--shard", f"{k}/3").stdout) for k in range(3)]
    merged = sorted((r for part in parts for r in part), key=lambda r: r["extra_info"]["index"])
    assert merged == rows(full)
    # a group's row i is the row i of that group without the curriculum: only the mix changed
    plain = {r["extra_info"]["index"]: r for r in rows(gen("arithmetic", "-n", "90", "--seed", "2").stdout)}
    same = [r for r in rows(full) if plain[r["extra_info"]["index"]]["extra_info"]["generator_name"]
            == r["extra_info"]["generator_name"]]
    assert same and all(plain[r["extra_info"]["index"]] == r for r in same)


def test_curriculum_input_errors_exit_2(round1, tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(gen("arithmetic", "-n", "3").stdout)
    proc = gen("arithmetic", "--curriculum", tasks, check=False)
    assert proc.returncode == 2 and b"tasks.jsonl:1" in proc.stderr
    proc = gen("arithmetic", "--curriculum", round1, "--band", "0.9:0.1", check=False)
    assert proc.returncode == 2 and b"--band" in proc.stderr
    proc = gen("arithmetic", "--curriculum", round1, "--group", "nope", check=False)
    assert proc.returncode == 2 and b"no group 'nope'" in proc.stderr
    mixed = tmp_path / "mixed.jsonl"
    noop = rows(gen("noop", "-n", "2").stdout)
    mixed.write_bytes(round1.read_bytes() + trajectories(noop, {"default": 1.0}))
    proc = gen("--curriculum", mixed, check=False)
    assert proc.returncode == 2 and b"name the BOOTCAMP" in proc.stderr and b"arithmetic, noop" in proc.stderr
    out = tmp_path / "next.jsonl"
    proc = gen("arithmetic", "--curriculum", mixed, "-o", mixed, check=False)  # an input is never the output
    assert proc.returncode == 2 and not out.exists()
