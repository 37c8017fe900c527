"""`bc-eval --rescore RUN.jsonl`: today's verifier over stored trajectories without a model. After a deliberate
verifier change it reports exactly the rows that changed, per bootcamp and direction; each row keeps its old score
and stamp beside the new; the output is as safe as every tool's (no collision with an input, whole or nothing)."""
from __future__ import annotations

import subprocess

import orjson
import pytest

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl

REWARD = '''from bootcamps.arithmetic.reward import ArithmeticRewardCalculator


class Reward(ArithmeticRewardCalculator):
    """The arithmetic verifier, in a bootcamp folder of its own."""
'''
# the deliberate change: 4 is accepted for 2 + 3 (a verifier bug, as a fix could be the other way round)
LENIENT = REWARD + '''
    @classmethod
    def _verify_correction(cls, extracted, identity, **kwargs):
        return extracted == 4 or super()._verify_correction(extracted, identity, **kwargs)
'''
ANSWERS = [5, 4, 5, 4, 7, 4]  # rows 1, 3, 5 answer 4


@pytest.fixture
def run(tmp_path, scripted):
    """(command prefix, trajectories file, env, bootcamp folder) of a run of six tasks on bootcamp/mycamp."""
    pkg = tmp_path / "lib" / "mycamp"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "reward.py").write_text(REWARD)
    registry = write_jsonl(tmp_path / "registry.jsonl", [{"data_source": "bootcamp/mycamp",
                                                          "reward_calculator_class": "mycamp.reward.Reward"}])
    tasks = [{**arithmetic_task("2 + 3", i, tools=False, interaction=False, prompt=f"Compute 2 + 3 ({i})."),
              "data_source": "bootcamp/mycamp"} for i in range(len(ANSWERS))]
    write_jsonl(tmp_path / "tasks.jsonl", tasks)
    _, url = scripted({f"Compute 2 + 3 ({i}).": [{"content": answer(a)}] for i, a in enumerate(ANSWERS)})
    env = bc_eval_env(PYTHONPATH=str(tmp_path / "lib"))
    traj = tmp_path / "traj.jsonl"
    subprocess.run([str(BIN / "bc-eval"), str(tmp_path / "tasks.jsonl"), "-o", str(traj), "--model", "m",
                    "--base-url", url, "--bootcamp-registry", str(registry), "--ordered", "-q"],
                   check=True, env=env, capture_output=True)
    cmd = [str(BIN / "bc-eval"), "--rescore", "--bootcamp-registry", str(registry)]
    return cmd, traj, env, pkg


def test_after_a_verifier_change_exactly_the_changed_rows_are_reported(run, tmp_path):
    cmd, traj, env, pkg = run
    before = read_jsonl(traj)
    assert [r["score"] for r in before] == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    unchanged = subprocess.run([*cmd, str(traj), "-o", str(tmp_path / "same.jsonl")], env=env, capture_output=True)
    assert unchanged.returncode == 0, unchanged.stderr.decode()
    assert "bootcamp/mycamp: 6 rows, 0 changed (0 up, 0 down), mean score 0.333 -> 0.333" in \
        unchanged.stderr.decode()

    (pkg / "reward.py").write_text(LENIENT)
    out, summary = tmp_path / "rescored.jsonl", tmp_path / "s.json"
    proc = subprocess.run([*cmd, str(traj), "-o", str(out), "--summary", str(summary)], env=env,
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    changed = sorted(before[i]["id"] for i in (1, 3, 5))
    assert (f"bootcamp/mycamp: 6 rows, 3 changed (3 up, 0 down), mean score 0.333 -> 0.833: "
            f"{', '.join(changed)}") in proc.stderr.decode()
    report = orjson.loads(summary.read_bytes())["rescore"]["bootcamp/mycamp"]
    assert report["changed_ids"] == changed and (report["up"], report["down"]) == (3, 0)

    after = read_jsonl(out)
    assert [r["score"] for r in after] == [1.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    assert [r["success"] for r in after] == [True, True, True, True, False, True]
    new_hash = after[0]["code_hash"]
    assert new_hash != before[0]["code_hash"]
    for old, new in zip(before, after, strict=True):
        assert new["rescore"] == {"score": old["score"], "bootcamp_version": old["bootcamp_version"],
                                  "code_hash": old["code_hash"]}
        assert new["reward"]["score"] == new["score"] and new["code_hash"] == new_hash
        assert new["messages"] == old["messages"] and new["turns"] == old["turns"]  # no model was called

    # and back: the fix reverted, the rescored file goes down on exactly those rows
    (pkg / "reward.py").write_text(REWARD)
    proc = subprocess.run([*cmd, str(out), "-o", str(tmp_path / "back.jsonl")], env=env, capture_output=True)
    assert "6 rows, 3 changed (0 up, 3 down), mean score 0.833 -> 0.333" in proc.stderr.decode()


def test_output_safety_collision_bad_rows_and_task_rows(run, tmp_path):
    cmd, traj, env, _ = run
    written = traj.read_bytes()
    proc = subprocess.run([*cmd, str(traj), "-o", str(traj)], env=env, capture_output=True)
    assert proc.returncode == 2 and traj.read_bytes() == written

    rows = read_jsonl(traj)
    bad = write_jsonl(tmp_path / "bad.jsonl", [rows[0], {**rows[1], "score": "high"}, rows[2]])
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"kept\n")
    proc = subprocess.run([*cmd, str(bad), "-o", str(out)], env=env, capture_output=True)
    assert proc.returncode == 2 and "bad.jsonl:2" in proc.stderr.decode() and "score" in proc.stderr.decode()
    assert out.read_bytes() == b"kept\n"  # whole or nothing: the existing file is untouched

    proc = subprocess.run([*cmd, str(tmp_path / "tasks.jsonl")], env=env, capture_output=True)
    assert proc.returncode == 2 and "tasks.jsonl:1: this is a task file" in proc.stderr.decode()

    proc = subprocess.run([*cmd, str(traj), "--model", "m"], env=env, capture_output=True)
    assert proc.returncode == 2 and "--rescore calls no model" in proc.stderr.decode()
