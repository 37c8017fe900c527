"""The author's contract: named reply types (old tuples accepted), clear manifest and policy errors, class paths
checked before any import, install hints that work where the harness runs."""
from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.bootcamp import Bootcamp, InteractionReply, ReferencePolicy, RewardCalculator, Tool, ToolResult
from bc_common.classes import load_class
from bc_common.errors import RegistryError
from bc_common.extras import install_hint, missing_modules
from bc_common.tool_config import spec_of_tool
from bc_common.tool_runtime import ToolRuntime

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ECHO_SCHEMA = {"type": "function", "function": {"name": "echo", "description": "Echo.",
                                                "parameters": {"type": "object", "properties": {}}}}


# ---- types: ToolResult and InteractionReply -----------------------------------------------------------------------

def _call(tool_cls: type) -> ToolResult:
    runtime = ToolRuntime.from_specs([spec_of_tool(tool_cls, "test")])

    async def go() -> ToolResult:
        session = runtime.session()
        try:
            return await session.call("echo", {})
        finally:
            await session.close()

    return asyncio.run(go())


@pytest.mark.parametrize("returned", [ToolResult("hi", -0.5, {"n": 1}), ("hi", -0.5, {"n": 1}), ["hi", -0.5, {"n": 1}]])
def test_a_tool_returns_a_tool_result_or_the_seed_tuple(returned):
    class Echo(Tool):
        tool_schema = ECHO_SCHEMA

        async def execute(self, instance_id, parameters, **kwargs):
            return returned

    result = _call(Echo)
    assert (result.text, result.reward, result.metrics, result.ok) == ("hi", -0.5, {"n": 1}, True)
    text, reward, metrics = result  # code written for the seed's tuple still unpacks it
    assert (text, reward, metrics) == ("hi", -0.5, {"n": 1})


@pytest.mark.parametrize("returned", [("hi", 0.0), "hi", ("hi", "much", {}), ("hi", float("nan"), {}), None])
def test_a_tool_returning_another_shape_is_a_typed_error_for_the_model(returned):
    class Bad(Tool):
        tool_schema = ECHO_SCHEMA

        async def execute(self, instance_id, parameters, **kwargs):
            return returned

    result = _call(Bad)
    assert result.error["type"] == "tool_exception" and "tool echo" in result.text
    assert "ToolResult or (text, reward, metrics)" in result.text or "finite number" in result.text


def test_an_interaction_reply_is_the_seeds_tuple_with_names():
    reply = InteractionReply(terminate=False, text="Too low.", turn_score=0.25)
    terminate, text, score, extra = reply
    assert (terminate, text, score, extra) == (False, "Too low.", 0.25, None)
    assert InteractionReply.of((True, "done", 1, {"a": 1})) == InteractionReply(True, "done", 1.0, {"a": 1})
    assert InteractionReply.of(reply) is not None and InteractionReply.of([0, None, None, None]).text == ""
    for bad, said in [(("x", "t"), "a tuple of 2"), ((True, 3, 0.0, {}), "text must be a str"),
                      ((True, "t", "high", {}), "turn_score must be a finite number"),
                      ((True, "t", 0.0, [1]), "extra must be a dict"), (None, "NoneType")]:
        with pytest.raises(TypeError, match=said):
            InteractionReply.of(bad, "interaction guess")


# ---- the manifest's limits and a failing policy ------------------------------------------------------------------

@pytest.mark.parametrize(("limits", "said"), [
    ({"max_turns": 10}, "unknown limits key 'max_turns' (did you mean 'max_user_turns'? the keys are "
                        "max_assistant_turns, max_user_turns, max_tool_calls_per_turn, max_tool_calls"),
    (["max_assistant_turns"], "limits must be a dict of max_assistant_turns"),
    ({"max_assistant_turns": "ten"}, "limits['max_assistant_turns'] must be an integer >= 1, got 'ten'"),
    ({"max_tool_calls": 0}, "limits['max_tool_calls'] must be an integer >= 1, got 0"),
])
def test_a_manifest_with_bad_limits_says_which_keys_exist(limits, said):
    with pytest.raises(RegistryError) as info:
        Bootcamp(description="d", generator=None, reward=RewardCalculator, limits=limits)
    assert said in str(info.value)


def _collection(site: Path, folders: dict[str, str]) -> dict[str, str]:
    pkg = site / "contract_bcs"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, code in folders.items():
        (pkg / name).mkdir()
        (pkg / name / "__init__.py").write_text(code)
    info = site / "contract_bcs-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: contract-bcs\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bc.bootcamps]\ncontract = contract_bcs\n")
    return {**os.environ, "PYTHONPATH": str(site)}


NOOP_WITH = '''
from bc_common.bootcamp import Bootcamp
from bootcamps.noop import NoopInstructionGenerator, NoopPolicy, NoopRewardCalculator


class Broken(NoopPolicy):
    def respond(self, messages, *, wrong=False):
        return {{"role": "assistant", "content": str(1 / 0)}}


bootcamp = Bootcamp(description="noop again", generator=NoopInstructionGenerator, reward=NoopRewardCalculator,
                    policy={policy},
                    limits={limits})
'''


def test_bad_limits_name_the_manifests_file_and_line(tmp_path):
    env = _collection(tmp_path / "site", {"badlimits": NOOP_WITH.format(policy="NoopPolicy",
                                                                        limits='{"max_turns": 9}')})
    done = subprocess.run([str(BIN / "bc-gen"), "badlimits", "-n", "1"], capture_output=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert "contract_bcs/badlimits/__init__.py:11: bootcamp 'noop again': " in err and "unknown limits key 'max_turns'" in err, err
    assert "Traceback" not in err


def test_a_failing_policy_names_its_class_file_and_line(tmp_path):
    env = _collection(tmp_path / "site", {"brokenpolicy": NOOP_WITH.format(policy="Broken", limits="{}")})
    tasks = subprocess.run([str(BIN / "bc-gen"), "brokenpolicy", "-n", "2"], capture_output=True, env=env,
                           timeout=120)
    assert tasks.returncode == 0, tasks.stderr.decode()
    out = subprocess.run([str(BIN / "bc-eval"), "--model", "builtin:reference", "-q"], input=tasks.stdout,
                         capture_output=True, env=env, timeout=120)
    rows = [orjson.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 2 and all(r["status"] == "error" for r in rows)
    message = rows[0]["error"]["message"]
    assert "reference policy contract_bcs.brokenpolicy.Broken.respond failed at" in message, message
    assert "contract_bcs/brokenpolicy/__init__.py:8: ZeroDivisionError: division by zero" in message, message


# ---- class paths: checked before any import ----------------------------------------------------------------------

def test_a_class_path_outside_bootcamps_and_user_code_is_refused_before_import(tmp_path, monkeypatch):
    # a module on sys.path whose import leaves a mark: found, but neither a bootcamp nor user code
    plugin_dir = tmp_path / "elsewhere"
    plugin_dir.mkdir()
    mark = tmp_path / "imported"
    (plugin_dir / "side_effect_mod.py").write_text(f"open({str(mark)!r}, 'w').close()\nclass Foo: pass\n")
    monkeypatch.syspath_prepend(str(plugin_dir))
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    for dotted in ("side_effect_mod.Foo", "this.Foo", "antigravity.Foo", "pip._internal.Foo"):
        with pytest.raises(RegistryError, match="is not a bootcamp's package nor code in the working directory"):
            load_class(dotted)
    assert not mark.exists() and "this" not in sys.modules and "antigravity" not in sys.modules
    monkeypatch.setenv("BC_CLASS_PACKAGES", "side_effect_mod")  # the allow-list lets it in
    assert load_class("side_effect_mod.Foo").__name__ == "Foo" and mark.exists()


def test_user_code_and_bootcamp_packages_still_load(tmp_path, monkeypatch):
    (tmp_path / "my_seed_pkg").mkdir()
    (tmp_path / "my_seed_pkg" / "__init__.py").write_text("class Reward: pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)  # a seed clone's own package, run from its folder
    assert load_class("my_seed_pkg.Reward").__name__ == "Reward"
    assert load_class("bootcamps.noop.NoopRewardCalculator", RewardCalculator).__name__ == "NoopRewardCalculator"
    with pytest.raises(RegistryError, match="must name a subclass of bc_common.bootcamp.ReferencePolicy"):
        load_class("bootcamps.noop.NoopRewardCalculator", ReferencePolicy)
    for bad in ("", "x", "os.path;rm", "a..b", 3):
        with pytest.raises(RegistryError):
            load_class(bad)


@pytest.mark.parametrize("where", ["tool", "instruction", "registry"])
def test_this_in_a_config_never_prints_the_zen(tmp_path, where):
    schema = ("    tool_schema:\n      type: function\n      function:\n        name: t\n        description: d\n"
              "        parameters: {type: object, properties: {}}\n")
    if where == "tool":
        cfg = tmp_path / "tools.yaml"
        cfg.write_text("tools:\n  - class_name: this.Foo\n    config: {type: native}\n" + schema)
        tasks = subprocess.run([str(BIN / "bc-gen"), "noop", "-n", "1"], capture_output=True, timeout=120).stdout
        args = [str(BIN / "bc-eval"), "--model", "builtin:reference", "--tool-config", str(cfg), "-q"]
        done = subprocess.run(args, input=tasks, capture_output=True, timeout=120)
    elif where == "instruction":
        cfg = tmp_path / "instruction.yaml"
        cfg.write_text("instruction_generators:\n  g: {config: {}}\nglobal_config:\n  class_name: this.Foo\n")
        done = subprocess.run([str(BIN / "bc-gen"), "--config", str(cfg), "-o", str(tmp_path / "out")],
                              capture_output=True, timeout=120)
    else:
        reg = tmp_path / "registry.jsonl"
        reg.write_text('{"data_source": "bootcamp/noop", "reward_calculator_class": "this.Foo"}\n')
        tasks = tmp_path / "tasks.jsonl"
        tasks.write_bytes(subprocess.run([str(BIN / "bc-gen"), "noop", "-n", "1"], capture_output=True,
                                         timeout=120).stdout)
        args = [str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "--bootcamp-registry", str(reg),
                "-q"]
        done = subprocess.run(args, capture_output=True, timeout=120)
    out = done.stdout.decode() + done.stderr.decode()
    assert "Beautiful is better than ugly" not in out, out
    assert done.returncode in (1, 2) or '"status":"error"' in out
    assert "'this.Foo'" in out and "was not imported" in out, out
    assert "Traceback" not in out


# ---- extras -------------------------------------------------------------------------------------------------------

def test_missing_modules_finds_without_importing():
    assert missing_modules(["json", "surely_not_a_module_xyz", "also.not_there"]) == ["surely_not_a_module_xyz",
                                                                                      "also.not_there"]


def test_the_install_hint_is_the_one_that_works_here(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert install_hint("battery") == "pip install -e '.[battery]' (or: make setup-verl, every extra)"
    monkeypatch.chdir(tmp_path)
    assert install_hint("battery") == f"pip install -e '{ROOT}[battery]'"
    assert install_hint("heavy", "their-dist") == "pip install 'their-dist[heavy]'"
    # the same code laid out as an installed wheel lays it out (no pyproject.toml above the package)
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "bc-common" / "bc_common", site / "bc_common", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from bc_common.extras import install_hint; print(install_hint('battery'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(site)}, timeout=60)
    assert done.stdout.strip() == "pip install 'bootcamp-harness[battery]'", done.stderr


def test_the_package_data_is_declared_so_setuptools_is_quiet(tmp_path):
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "would be ignored" not in done.stdout + done.stderr and "absent from the `packages`" not in done.stderr
    assert (tmp_path / "lib/bc_report/assets/report.css").is_file()
    assert (tmp_path / "lib/bootcamps/noop/README.md").is_file()
