"""The shared pieces behind every command: the output-is-input check and the one error path."""
from __future__ import annotations

import os

import click
import pytest

from bc_common.bootcamp import Tool
from bc_common.cli import BcCommand
from bc_common.cli_options import FINITE_FLOAT
from bc_common.errors import InputError, RegistryError, UsageError
from bc_common.paths import refuse_inputs_inside_dir, refuse_output_among_inputs, same_file
from bc_common.registry import load_class


def test_same_file_sees_through_names_symlinks_and_hard_links(tmp_path):
    data = tmp_path / "tasks.jsonl"
    data.write_text("{}\n")
    (tmp_path / "link.jsonl").symlink_to(data)
    os.link(data, tmp_path / "hard.jsonl")
    (tmp_path / "sub").mkdir()
    assert same_file(data, tmp_path / "sub" / ".." / "tasks.jsonl")
    assert same_file(data, tmp_path / "link.jsonl")
    assert same_file(data, tmp_path / "hard.jsonl")
    assert not same_file(data, tmp_path / "other.jsonl")
    (tmp_path / "copy.jsonl").write_text("{}\n")
    assert not same_file(data, tmp_path / "copy.jsonl")


def test_an_output_among_the_inputs_is_refused_naming_it(tmp_path):
    data = tmp_path / "tasks.jsonl"
    data.write_text("{}\n")
    os.link(data, tmp_path / "hard.jsonl")
    with pytest.raises(UsageError, match=r"hard\.jsonl: -o names a file that is also an input .*tasks\.jsonl"):
        refuse_output_among_inputs(tmp_path / "hard.jsonl", ["a.jsonl", str(data)])
    refuse_output_among_inputs("-", [str(data)])  # stdout is never an input
    refuse_output_among_inputs(tmp_path / "new.jsonl", [str(data)])
    assert UsageError("x").exit_code == 2


def test_an_input_inside_the_output_folder_is_refused(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "tasks.jsonl").write_text("{}\n")
    with pytest.raises(UsageError, match="holding an input"):
        refuse_inputs_inside_dir(run, [str(run / "tasks.jsonl")])
    os.link(run / "tasks.jsonl", tmp_path / "elsewhere.jsonl")  # the same file under another name
    with pytest.raises(UsageError, match="elsewhere.jsonl"):
        refuse_inputs_inside_dir(run, [str(tmp_path / "elsewhere.jsonl")])
    (tmp_path / "other.jsonl").write_text("{}\n")
    refuse_inputs_inside_dir(run, [str(tmp_path / "other.jsonl")])
    refuse_inputs_inside_dir(tmp_path / "missing", [str(tmp_path / "other.jsonl")])


def test_a_class_name_must_name_a_subclass_of_the_expected_base():
    assert load_class("bc_common.remote_tool.RemoteTool", Tool).__name__ == "RemoteTool"
    for dotted in ("builtins.print", "builtins.dict", "os.path"):
        with pytest.raises(RegistryError, match="must name a subclass of bc_common.bootcamp.Tool"):
            load_class(dotted, Tool)


def test_finite_float_refuses_nan_and_infinity():
    assert FINITE_FLOAT.convert("0.9", None, None) == 0.9
    for text in ("nan", "NaN", "inf", "-inf", "x"):
        with pytest.raises(click.BadParameter):
            FINITE_FLOAT.convert(text, None, None)


@click.command("bc-demo", cls=BcCommand)
@click.option("--fail", type=click.Choice(["input", "oserror", "bug", "interrupt", "none"]), default="none")
def demo(fail: str) -> None:
    if fail == "input":
        raise InputError("missing field 'prompt'", source="tasks.jsonl", line=17)
    if fail == "oserror":
        open("/proc/definitely/not/here", "wb")
    if fail == "bug":
        raise ZeroDivisionError("oops")
    if fail == "interrupt":
        raise KeyboardInterrupt


@pytest.mark.parametrize("args, code, message", [
    (["--fail", "input"], 2, "bc-demo: error: tasks.jsonl:17: missing field 'prompt'"),
    (["--fail", "oserror"], 2, "bc-demo: error: /proc/definitely/not/here: No such file or directory"),
    (["--fail", "bug"], 1, "bc-demo: error: internal error: ZeroDivisionError: oops"),
    (["--fail", "interrupt"], 130, "bc-demo: interrupted"),
    (["--fail", "nope"], 2, "bc-demo: error: Invalid value for '--fail'"),
    (["--bogus"], 2, "bc-demo: error: No such option '--bogus'"),
    (["--fail", "none"], 0, ""),
])
def test_one_error_path_one_message_shape(args, code, message, capsys):
    with pytest.raises(SystemExit) as info:
        demo.main(args, prog_name="bc-demo")
    err = capsys.readouterr().err.lstrip("\n")  # click closes a terminal's ^C echo with a blank line
    assert info.value.code == code
    assert err.startswith(message) and "Traceback" not in err


def test_standalone_mode_off_raises_as_click_does():
    with pytest.raises(InputError):
        demo.main(["--fail", "input"], standalone_mode=False)
