"""Every numeric flag of every command is checked when it is parsed (issue 22.16): the test walks the click commands
themselves, so a flag added tomorrow without bounds fails here. nan, ±inf, 1e400, below the minimum and above the
maximum are refused with exit 2 and a message naming the flag; bc-eval's memory does not grow with -c."""
from __future__ import annotations

import math
import tracemalloc
from collections.abc import Iterator

import click
import pytest

from bc_common.cli_options import Count, Number

COMMANDS = {"bc-gen": "bc_gen.cli:main", "bc-eval": "bc_eval.cli:main", "bc-filter": "bc_filter.cli:main",
            "bc-train": "bc_train.cli:main", "bc-report": "bc_report.cli:main", "bc-toolserve": "bc_toolserve.cli:cli"}
REQUIRED = {"bc-toolserve worker": ["--master-url", "http://127.0.0.1:9"],
            "bc-toolserve ray": ["--master-url", "http://127.0.0.1:9"],
            "bc-toolserve config": ["tools.yaml", "--master-url", "http://127.0.0.1:9"]}


def _load(ref: str) -> click.Command:
    module, attr = ref.split(":")
    return getattr(__import__(module, fromlist=[attr]), attr)


def _walk(name: str, command: click.Command) -> Iterator[tuple[str, click.Command]]:
    if isinstance(command, click.Group):
        for sub_name, sub in command.commands.items():
            yield from _walk(f"{name} {sub_name}", sub)
    else:
        yield name, command


def _is_numeric(param: click.Parameter) -> bool:
    return isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType, Number))


def numeric_flags() -> list[tuple[str, click.Command, click.Option]]:
    found = []
    for prog, ref in COMMANDS.items():
        for name, command in _walk(prog, _load(ref)):
            found += [(name, command, p) for p in command.params if isinstance(p, click.Option) and _is_numeric(p)]
    return found


def flag_name(param: click.Option) -> str:
    return next((o for o in param.opts if o.startswith("--")), param.opts[0])


FLAGS = numeric_flags()
IDS = [f"{name} {flag_name(param)}" for name, _, param in FLAGS]


def test_the_walk_finds_the_flags_of_every_tool():
    names = {name.split()[0] for name, _, _ in FLAGS}
    assert names == set(COMMANDS) and len(FLAGS) >= 50
    assert "bc-eval --retries" in IDS and "bc-eval --concurrency" in IDS and "bc-toolserve master --port" in IDS


@pytest.mark.parametrize("name, command, param", FLAGS, ids=IDS)
def test_every_numeric_flag_has_a_floor_and_a_ceiling(name, command, param):
    assert isinstance(param.type, (Count, Number)), f"{name} {flag_name(param)}: use bc_common.cli_options.Count/Number"
    assert param.type.min is not None and param.type.max is not None
    assert math.isfinite(param.type.min) and math.isfinite(param.type.max)


def _bad_values(kind: Count | Number) -> list[str]:
    bad = ["nan", "inf", "-inf", "1e400", str(kind.max * 2 + 1), "1" + "0" * 30]
    if isinstance(kind, Number) and kind.min_open:
        bad.append(repr(float(kind.min)))
    bad.append(str(kind.min - 1))
    return bad


def _parse(name: str, command: click.Command, args: list[str]) -> None:
    """Parse `args` as the command would (no callback runs: a server is never started here)."""
    with command.make_context(name, args + REQUIRED.get(name, [])):
        pass


@pytest.mark.parametrize("name, command, param", FLAGS, ids=IDS)
def test_every_numeric_flag_refuses_nan_infinity_and_out_of_range(name, command, param):
    flag = flag_name(param)
    good = param.type.min + (1 if getattr(param.type, "min_open", False) else 0)
    _parse(name, command, [flag, str(good)])  # the floor (or just above it) is fine: the harness itself works
    for value in _bad_values(param.type):
        with pytest.raises(click.BadParameter) as info:
            _parse(name, command, [flag, value])
        assert flag in info.value.format_message() or param.opts[0] in info.value.format_message(), value


@pytest.mark.parametrize("argv, flag", [
    (["--retries", "-1"], "--retries"),
    (["-c", "100000000"], "-c"),
    (["--timeout", "0"], "--timeout"),
    (["--timeout", "nan"], "--timeout"),
    (["--backoff", "-1"], "--backoff"),
    (["--backoff", "nan"], "--backoff"),
])
def test_the_reported_cases_exit_2_before_anything_runs(argv, flag, capsys, tmp_path):
    from bc_eval.cli import main

    with pytest.raises(SystemExit) as info:
        main(["--model", "builtin:reference", "-o", str(tmp_path / "out.jsonl"), *argv], prog_name="bc-eval")
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("bc-eval: error: Invalid value for ") and flag in err, err
    assert not (tmp_path / "out.jsonl").exists()


def test_concurrency_memory_does_not_grow_with_c_beyond_the_tasks(tmp_path):
    """Two tasks at -c 100,000 hold what two tasks at -c 2 hold: no worker is made for a slot with no task."""
    from bc_common.jsonl import JsonlWriter
    from bc_common.tasks import TaskSet
    from bc_eval.runner import EvalConfig, evaluate

    tasks = tmp_path / "tasks.jsonl"
    task_set = TaskSet("arithmetic", seed=3)
    with JsonlWriter(tasks) as writer:
        for i in range(2):
            writer.write(task_set[i])

    def peak(concurrency: int) -> int:
        out = tmp_path / f"out{concurrency}.jsonl"
        tracemalloc.start()
        try:
            evaluate(EvalConfig(tasks=[str(tasks)], output=str(out), model="builtin:reference",
                                concurrency=concurrency))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert len(out.read_bytes().splitlines()) == 2

    small, huge = peak(2), peak(100_000)
    assert huge < small + (4 << 20), (small, huge)  # before: ~1 KB per slot, 100+ MB here
