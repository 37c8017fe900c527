"""The bootcamp platform: one folder per bootcamp, collections found by entry point, names cross-checked,
unavailable bootcamps listed with their fix, task i as a public API, unique ids, seed-format configs on demand."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import yaml

from bc_common.catalog import get_bootcamp
from bc_common.tasks import GroupPlan, TaskSet

ROOT = Path(__file__).parents[2]
BIN = Path(sys.executable).parent


def third_party(site: Path, package: str, folders: dict[str, Path | str], *, dist: str = "extra") -> dict[str, str]:
    """A collection package `package` under `site`, registered by a dist-info entry point, as `pip install` of a
    third-party bootcamp package would leave it. `folders` maps a bootcamp folder name to a folder to copy or to
    the text of its `__init__.py`. Returns the environment that makes Python see it."""
    pkg = site / package
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, source in folders.items():
        if isinstance(source, Path):
            shutil.copytree(source, pkg / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (pkg / name).mkdir()
            (pkg / name / "__init__.py").write_text(source)
    info = site / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[bc.bootcamps]\n{dist} = {package}\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run(args: list[str], env: dict[str, str] | None = None, stdin: bytes | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=120)


def test_a_copied_bootcamp_runs_its_own_classes(tmp_path):
    env = third_party(tmp_path / "site", "my_bootcamps", {"arith_copy": ROOT / "bootcamps" / "arithmetic"})
    init = tmp_path / "site" / "my_bootcamps" / "arith_copy" / "__init__.py"
    init.write_text(init.read_text().replace("Evaluate + - × ÷ expressions exactly", "My copy of arithmetic"))
    probe = """
import asyncio, sys
from bc_common.catalog import get_bootcamp
from bc_common.builtin_model import reference_trajectory
from bc_common.environment import Environments
from bc_common.tasks import TaskSet
bc = get_bootcamp("arith_copy")
row = TaskSet("arith_copy", seed=3)[0]
t = asyncio.run(reference_trajectory(row, Environments().get(row["data_source"])))
classes = [bc.generator, bc.reward, bc.policy, bc.interaction, *bc.tools]
assert all(c.__module__.startswith("my_bootcamps.arith_copy.") for c in classes), classes
assert not any(m == "bootcamps.arithmetic" or m.startswith("bootcamps.arithmetic.") for m in sys.modules)
assert row["data_source"] == "bootcamp/arith_copy" and bc.description.startswith("My copy")
assert t["score"] == 1.0 and t["num_turns"]["tool_calls"] >= 2, t  # two operations a call at most
from bc_common.describe import listing  # its line of `bc-gen --list` (the whole listing is read elsewhere)
entry = listing("arith_copy")
assert "extra 1.0" in entry["source"] and entry["tools"] == ["calculate"], entry
print("ok")
"""
    proc = run([sys.executable, "-c", probe], env)
    assert proc.returncode == 0 and proc.stdout.strip() == b"ok", proc.stderr.decode()
    tasks = run([str(BIN / "bc-gen"), "arith_copy", "-n", "5", "--seed", "2"], env)
    assert tasks.returncode == 0, tasks.stderr.decode()
    assert {orjson.loads(line)["data_source"] for line in tasks.stdout.splitlines()} == {"bootcamp/arith_copy"}
    out = run([str(BIN / "bc-eval"), "--model", "builtin:reference", "-q"], env, stdin=tasks.stdout)
    assert out.returncode == 0, out.stderr.decode()
    assert [orjson.loads(line)["score"] for line in out.stdout.splitlines()] == [1.0] * 5


def test_a_manifest_naming_another_bootcamp_is_refused_naming_both(tmp_path):
    env = third_party(tmp_path / "site", "my_bootcamps", {"arith_copy": ROOT / "bootcamps" / "arithmetic"})
    init = tmp_path / "site" / "my_bootcamps" / "arith_copy" / "__init__.py"
    init.write_text(init.read_text().replace("bootcamp = Bootcamp(\n", "bootcamp = Bootcamp(\n    name='arithmetic',\n"))
    proc = run([str(BIN / "bc-gen"), "arith_copy", "-n", "1"], env)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert b"name='arithmetic'" in proc.stderr and b"'arith_copy'" in proc.stderr


def test_two_bootcamps_with_one_name_is_an_error_naming_both_sources(tmp_path):
    env = third_party(tmp_path / "site", "clash", {"arithmetic": ROOT / "bootcamps" / "arithmetic"})
    proc = run([str(BIN / "bc-gen"), "arithmetic", "-n", "1"], env)
    assert proc.returncode == 2, proc.stderr.decode()
    assert b"two bootcamps are named 'arithmetic'" in proc.stderr
    assert b"bootcamps/arithmetic" in proc.stderr and b"clash/arithmetic" in proc.stderr
    assert run([str(BIN / "bc-gen"), "noop", "-n", "1"], env).returncode == 0  # the others still work


UNAVAILABLE = '''
from bc_common.bootcamp import missing_extra
bootcamp = missing_extra("heavy", ["surely_not_installed_module_xyz"], description="Needs a heavy library.")
'''


def test_an_unavailable_bootcamp_is_listed_with_its_fix_and_refused_when_used(tmp_path):
    env = third_party(tmp_path / "site", "more", {"heavy_one": UNAVAILABLE})
    # both listings from one child (each loads every bootcamp; the second reuses the first's manifests)
    both = ("from bc_gen.cli import main\nmain(['--list'], standalone_mode=False)\nprint('--- json', flush=True)\n"
            "main(['--list', '--format', 'json'])\n")
    listed = run([sys.executable, "-c", both], env)
    assert listed.returncode == 0, listed.stderr.decode()
    text, _, json_text = listed.stdout.partition(b"--- json\n")
    line = next(x for x in text.decode().splitlines() if "heavy_one" in x)
    assert "pip install 'extra[heavy]'" in line and "surely_not_installed_module_xyz" in line
    as_json = orjson.loads(json_text)
    entry = next(e for e in as_json if e["name"] == "heavy_one")
    assert entry["available"] is False and entry["install"] == "pip install 'extra[heavy]'"
    used = run([str(BIN / "bc-gen"), "heavy_one", "-n", "1"], env)
    assert used.returncode == 2 and b"pip install 'extra[heavy]'" in used.stderr
    assert b"Traceback" not in used.stderr


def test_list_and_describe(bc_gen_list):
    listed = orjson.loads(bc_gen_list("--format", "json").stdout)  # the default listing, read once a test run
    arith = next(e for e in listed if e["name"] == "arithmetic")
    assert arith["tools"] == ["calculate"] and arith["interaction"] == "arithmetic_feedback"
    assert arith["groups"] == ["easy", "medium", "hard"] and "bootcamp-harness" in arith["source"]
    text = run([str(BIN / "bc-gen"), "--describe", "arithmetic"]).stdout.decode()
    for expected in ("max_terms", "default 6", "easy", "calculate(expression)", "example task"):
        assert expected in text
    facts = orjson.loads(run([str(BIN / "bc-gen"), "--describe", "tictactoe", "--format", "json"]).stdout)
    assert facts["example"]["data_source"] == "bootcamp/tictactoe" and facts["tool_schemas"] == []


def test_seed_format_configs_on_demand_round_trip(tmp_path):
    proc = run([str(BIN / "bc-gen"), "--describe", "arithmetic", "--format", "yaml", "-o", str(tmp_path / "cfg")])
    assert proc.returncode == 0, proc.stderr.decode()
    tools = yaml.safe_load((tmp_path / "cfg" / "tool_config.yaml").read_text())["tools"]
    assert tools[0]["class_name"] == "bootcamps.arithmetic.tools.CalculatorTool"
    out = tmp_path / "data"
    gen = run([str(BIN / "bc-gen"), "--config", str(tmp_path / "cfg" / "instruction_config.yaml"),
               "--split-samples", "train:20", "-o", str(out)])
    assert gen.returncode == 0, gen.stderr.decode()
    rows = [orjson.loads(line) for line in (out / "train.jsonl").read_bytes().splitlines()]
    assert {r["data_source"] for r in rows} == {"bootcamp/arithmetic"}
    assert {r["extra_info"]["generator_name"] for r in rows} == {"easy", "medium", "hard"}
    assert all(list(r["extra_info"]["tools_kwargs"]) == ["calculate"] for r in rows)


def test_task_i_is_public_and_matches_bc_gen():
    tasks = TaskSet("arithmetic", seed=7)
    lines = run([str(BIN / "bc-gen"), "arithmetic", "-n", "30", "--seed", "7"]).stdout.splitlines()
    assert [orjson.loads(line) for line in lines] == [tasks[i] for i in range(30)]
    hard = TaskSet("arithmetic", seed=7, groups=["hard"])
    assert {hard[i]["extra_info"]["generator_name"] for i in range(10)} == {"hard"}
    with pytest.raises(Exception, match="no group 'huge'"):
        TaskSet("arithmetic", groups=["huge"])


def test_group_plan_is_exact_on_every_prefix_and_independent_of_n():
    plan = GroupPlan([0.3, 0.5, 0.2])
    groups = [plan[i] for i in range(1000)]
    for n in (10, 97, 1000):
        counts = [groups[:n].count(g) for g in range(3)]
        assert all(abs(c - n * r) <= 1 for c, r in zip(counts, (0.3, 0.5, 0.2), strict=True)), (n, counts)
    assert [GroupPlan([0.3, 0.5, 0.2])[i] for i in range(10)] == groups[:10]


def test_ids_are_unique_when_two_groups_share_parameters(tmp_path):
    """The seed's `basic_config` / `basic_config_w_tool` pattern: same parameters, one group with tools."""
    cfg = tmp_path / "cfg"
    run([str(BIN / "bc-gen"), "--describe", "arithmetic", "--format", "yaml", "-o", str(cfg)])
    doc = yaml.safe_load((cfg / "instruction_config.yaml").read_text())
    params = {"min_terms": 2, "max_terms": 4}
    doc["instruction_generators"] = {
        "basic_config": {"config": params, "generation_ratio": 0.5},
        "basic_config_w_tool": {"config": params, "generation_ratio": 0.5, "yaml_tool_path": "tool_config.yaml"},
    }
    del doc["global_config"]["yaml_tool_path"]
    (cfg / "instruction_config.yaml").write_text(yaml.safe_dump(doc))
    out = tmp_path / "data"
    proc = run([str(BIN / "bc-gen"), "--config", str(cfg / "instruction_config.yaml"), "--split-samples",
                "train:200", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr.decode()
    rows = [orjson.loads(line) for line in (out / "train.jsonl").read_bytes().splitlines()]
    assert len(rows) == 200 and len({r["id"] for r in rows}) == 200


def test_manifest_classes_and_interaction_state():
    bc = get_bootcamp("arithmetic")
    assert [s.cls for s in bc.tool_specs()] == bc.tools
    interaction = bc.interaction_spec().instantiate()
    assert interaction.name == "arithmetic_feedback" and interaction.config["max_attempts"] == 3
    with pytest.raises(KeyError, match="no live instance"):
        interaction.state("nope")


WHEEL_ROWS = """
import sys
import orjson
from bc_common.tasks import TaskSet
for name in sys.argv[1:]:
    tasks = TaskSet(name, seed=1)
    for i in range(5):
        sys.stdout.buffer.write(orjson.dumps(tasks[i]) + b"\\n")
"""


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_ships_every_bootcamp(tmp_path):
    """No editable install, no source tree: the wheel alone lists and runs every built-in bootcamp."""
    wheel_dir = tmp_path / "wheel"
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                 str(wheel_dir), str(ROOT)])
    assert built.returncode == 0, built.stderr.decode()
    wheel = next(wheel_dir.glob("bootcamp_harness-*.whl"))
    venv = tmp_path / "venv"
    # this interpreter's pip installs into the venv (no pip of its own to bootstrap); no .pyc for the dependencies
    # ahead of time: the commands below compile what they import
    assert run([sys.executable, "-m", "venv", "--without-pip", str(venv)]).returncode == 0
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                                "-q", "--no-compile", str(wheel)], capture_output=True, timeout=600)
    assert installed.returncode == 0, installed.stderr.decode()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    listed = run([str(venv / "bin" / "bc-gen"), "--list", "--format", "json"], env, cwd=outside)
    assert listed.returncode == 0, listed.stderr.decode()
    entries = orjson.loads(listed.stdout)
    assert all(e["source"].startswith("bootcamps/") for e in entries)
    available = [e["name"] for e in entries if e["available"]]
    builtin = sorted(p.name for p in (ROOT / "bootcamps").iterdir() if (p / "__init__.py").is_file())
    assert {"arithmetic", "tictactoe", "noop"} <= set(available)
    assert {e["name"].split("/")[0] for e in entries} == set(builtin)
    # every own bootcamp runs from the wheel; a collection (`prefix/name`, one module shape for all its names, each
    # imported by the listing above) runs its first available name: dozens of pure-Python names would add minutes.
    # Task i of each in one process (the public API bc-gen prints: the same rows), all through one bc-eval
    firsts = {}
    for name in available:
        firsts.setdefault(name.partition("/")[0] if "/" in name else name, name)
    made = run([str(venv / "bin" / "python"), "-c", WHEEL_ROWS, *firsts.values()], env, cwd=outside)
    assert made.returncode == 0, made.stderr.decode()
    cli = run([str(venv / "bin" / "bc-gen"), "arithmetic", "-n", "5", "--seed", "1"], env, cwd=outside)
    assert cli.returncode == 0, cli.stderr.decode()
    assert cli.stdout.splitlines() == [line for line in made.stdout.splitlines()
                                       if orjson.loads(line)["data_source"] == "bootcamp/arithmetic"]
    # --no-judge: a rubric bootcamp (fact_summary) is graded by its code components here, no judge server
    out = run([str(venv / "bin" / "bc-eval"), "--model", "builtin:reference", "--no-judge", "-q"], env,
              stdin=made.stdout, cwd=outside)
    assert out.returncode == 0, out.stderr.decode()
    scores: dict[str, list[float]] = {}
    for line in out.stdout.splitlines():
        row = orjson.loads(line)
        scores.setdefault(row["input"]["data_source"].removeprefix("bootcamp/"), []).append(row["score"])
    assert scores == {name: [1.0] * 5 for name in firsts.values()}
