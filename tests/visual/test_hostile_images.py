"""Images a hostile task row brings: an upscale bomb (a 1 x 1,000,000 PNG with --min-image-edge) and paths that
leave the dataset's folder (../, absolute, a symlink out), refused with one message that says nothing about the
file."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bc_common.images import MAX_OUTPUT_PIXELS, ImageLimits, ImageRefused, encode_png

from .helpers import picture, run, write_rows
from .test_eval import eval_rows, image, server, task  # noqa: F401 (server is a fixture)


def strip_png(width: int, height: int) -> bytes:
    from PIL import Image

    return encode_png(Image.new("L", (width, height), 128))


def test_a_1_by_1000000_png_is_refused_not_upscaled(tmp_path: Path, server):  # noqa: F811
    _, url = server
    bomb = strip_png(1, 1_000_000)
    assert len(bomb) < 10_000
    (tmp_path / "strip.png").write_bytes(bomb)
    tasks = write_rows(tmp_path / "t.jsonl", [task("What is it?", image="strip.png")])
    started = time.monotonic()
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "--min-image-edge", "28", check=False)
    assert time.monotonic() - started < 30
    assert proc.returncode == 2, proc.stderr.decode()
    err = proc.stderr.decode()
    assert f"{tasks}:1:" in err and "1 x 1000000 pixels: an aspect ratio over 200:1 is refused" in err, err


def test_scaling_up_never_passes_the_output_cap_whatever_the_flags():
    assert ImageLimits(None, 100_000).target(10, 10) is not None
    w, h = ImageLimits(None, 100_000).target(10, 10)
    assert w * h <= MAX_OUTPUT_PIXELS
    w, h = ImageLimits(10**12, 50_000).target(1, 100)
    assert w * h <= MAX_OUTPUT_PIXELS and 99 < h / w < 101  # the aspect is kept
    with pytest.raises(ImageRefused, match="aspect ratio"):
        ImageLimits(None, 28).target(1, 1_000_000)


def test_an_image_within_the_cap_is_still_scaled_up(tmp_path: Path, server):  # noqa: F811
    s, url = server
    image((10, 5)).save(tmp_path / "small.png")
    tasks = write_rows(tmp_path / "t.jsonl", [task("What colour?", image="small.png")])
    eval_rows(tasks, url, "--min-image-edge", "28")
    (msg,) = s.requests[0]["body"]["messages"]
    assert picture(msg["content"][0]["image_url"]["url"]).size == (56, 28)


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """data/ (the dataset's folder, with a good image and a symlink out) beside secret/ (an image outside)."""
    data, secret = tmp_path / "data", tmp_path / "secret"
    data.mkdir()
    secret.mkdir()
    image((8, 8)).save(data / "ok.png")
    image((8, 8)).save(secret / "x.png")
    os.symlink(secret / "x.png", data / "link.png")
    return {"data": data, "secret": secret}


def test_paths_outside_the_dataset_folder_are_refused_alike_whether_or_not_the_file_exists(layout, server):  # noqa: F811
    _, url = server
    data, secret = layout["data"], layout["secret"]
    probes = ["../secret/x.png", "../secret/missing.png", str(secret / "x.png"), str(secret / "missing.png"),
              "link.png", f"file://{secret / 'x.png'}", "../../../../../../etc/passwd"]  # files that exist and not
    messages = {}
    for path in probes:
        tasks = write_rows(data / "t.jsonl", [task("What is it?", image=[path])])
        proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", check=False)
        assert proc.returncode == 2, (path, proc.stderr.decode())
        err = proc.stderr.decode()
        assert "is outside the dataset's folder" in err, (path, err)
        for tell in ("No such file", "not a regular file", "cannot read", "not a PNG"):
            assert tell not in err, (path, err)
        messages[path] = err.replace(repr(path), "PATH")
    assert len(set(messages.values())) == 1, messages  # one message, whatever exists


def test_the_same_holds_for_image_parts_of_the_prompt(layout, server):  # noqa: F811
    _, url = server
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "../secret/x.png"}},
                                           {"type": "text", "text": "What is it?"}]}]
    tasks = write_rows(layout["data"] / "t.jsonl", [task(prompt)])
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", check=False)
    assert proc.returncode == 2 and "is outside the dataset's folder" in proc.stderr.decode()


def test_inside_paths_work_and_image_root_names_another_folder(layout, server):  # noqa: F811
    s, url = server
    data = layout["data"]
    tasks = write_rows(data / "t.jsonl", [task("What is it?", image=["ok.png"]),
                                          task("And this?", image=["sub/../ok.png"], id="visual-1")])
    out, _ = eval_rows(tasks, url)
    assert len(out) == 2
    (data / "sub").mkdir()
    below = write_rows(data / "sub" / "t.jsonl", [task("What is it?", image=["../ok.png"])])
    proc = run("bc-eval", below, "--base-url", url, "--model", "scripted", check=False)
    assert proc.returncode == 2 and "is outside the dataset's folder" in proc.stderr.decode()
    out, _ = eval_rows(below, url, "--image-root", data)  # the images folder above the task file's
    assert len(out) == 1 and out[0]["status"] == "completed"
    proc = run("bc-eval", below, "--base-url", url, "--model", "scripted", "--image-root", data / "sub",
               check=False)
    assert proc.returncode == 2  # the root confines; it does not move where paths start
