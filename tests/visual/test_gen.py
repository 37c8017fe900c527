"""bc-gen with images: PNG data URLs in the prompt, the same bytes every time, the seed's dict-form prompt_func,
our list-of-parts form, and --image-dir (files named by content hash, paths relative to the output)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bc_common.images import decode_data_url, prompt_messages
from bc_common.tasks import TaskSet
from bc_gen.generate import CHUNK

from .helpers import image_urls, picture, rows, run

SEED_CONFIG = """\
instruction_generators:
  default:
    config: {{}}
    generation_ratio: 1.0
global_config:
  class_name: tests.visual.seed_generator.{cls}
  data_source: bootcamp/seed_dots
  default_seed: 0
"""


def png_chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    out, pos = [], 8
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        out.append(data[pos + 4:pos + 8])
        pos += 12 + length
    return out


def test_chart_read_rows_carry_png_data_urls_and_repeat_byte_for_byte():
    first = run("bc-gen", "chart_read", "-n", 20, "--seed", 3).stdout
    second = run("bc-gen", "chart_read", "-n", 20, "--seed", 3).stdout
    assert first == second
    tasks = rows(first)
    assert len(tasks) == 20
    for task in tasks:
        urls = image_urls(task["prompt"])
        assert len(urls) == 1 and urls[0].startswith("data:image/png;base64,")
        data, mime = decode_data_url(urls[0])
        assert mime == "image/png" and data.startswith(b"\x89PNG\r\n\x1a\n")
        chunks = png_chunks(data)  # pixels only: no tIME, tEXt or other metadata
        assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and set(chunks[1:-1]) == {b"IDAT"}
        assert picture(urls[0]).size == (640, 400)
    other = rows(run("bc-gen", "chart_read", "-n", 20, "--seed", 4).stdout)
    assert {image_urls(t["prompt"])[0] for t in other}.isdisjoint({image_urls(t["prompt"])[0] for t in tasks})


def test_shards_and_workers_give_the_same_image_bytes():
    whole = run("bc-gen", "grid_maze", "-n", 12, "--seed", 5).stdout.splitlines()
    parts = [run("bc-gen", "grid_maze", "-n", 12, "--seed", 5, "--shard", f"{k}/3").stdout.splitlines()
             for k in range(3)]
    assert sorted(line for part in parts for line in part) == sorted(whole)
    # one chunk more than bc-gen draws in process: -j 2 hands 16 chunks of 68 rows to the worker processes
    n = CHUNK + 64
    assert run("bc-gen", "container_water", "-n", n, "--seed", 2, "-j", 2).stdout == \
        run("bc-gen", "container_water", "-n", n, "--seed", 2).stdout


def test_seed_dict_prompt_func_through_bc_gen_config(tmp_path: Path):
    for mode, cls in (("pil", "SeedDotsGenerator"), ("bytes", "SeedDotsBytes"), ("path", "SeedDotsPath")):
        cfg = tmp_path / f"{mode}.yaml"
        cfg.write_text(SEED_CONFIG.format(cls=cls), encoding="utf-8")
        out = tmp_path / f"out-{mode}"
        run("bc-gen", "--config", cfg, "--split-samples", "train:6,test:0", "-o", out, cwd=tmp_path)
        tasks = rows(out / "train.jsonl")
        assert len(tasks) == 6
        for task in tasks:
            (message,) = task["prompt"]
            parts = message["content"]
            assert [p["type"] for p in parts] == ["text", "image_url", "text"]
            assert parts[0]["text"].startswith("Count the dots")
            assert "<image>" not in parts[0]["text"] + parts[2]["text"]
            image = picture(parts[1]["image_url"]["url"])
            dots = task["reward_model"]["ground_truth"]["dots"]
            assert image.size == (64, 64)
            assert sum(1 for x in range(64) for y in range(64) if image.getpixel((x, y)) == (0, 0, 0)) == dots
        again = tmp_path / f"again-{mode}"
        run("bc-gen", "--config", cfg, "--split-samples", "train:6,test:0", "-o", again, cwd=tmp_path)
        assert (again / "train.jsonl").read_bytes() == (out / "train.jsonl").read_bytes()


def test_a_dict_with_unknown_keys_is_a_clear_error(tmp_path: Path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(SEED_CONFIG.format(cls="SeedDotsTypo"), encoding="utf-8")
    proc = run("bc-gen", "--config", cfg, "--split-samples", "train:2,test:0", "-o", tmp_path / "o", check=False)
    assert proc.returncode == 2
    assert b"'prompt_image'" in proc.stderr and b"prompt_img" in proc.stderr


def test_prompt_forms():
    from PIL import Image

    img = Image.new("RGB", (4, 3), "red")
    assert prompt_messages("hi") == [{"role": "user", "content": "hi"}]
    (msg,) = prompt_messages(["Look:", img, {"type": "image", "image": img}, "How many?"])
    assert [p["type"] for p in msg["content"]] == ["text", "image_url", "image_url", "text"]
    assert msg["content"][1] == msg["content"][2]
    chat = prompt_messages([{"role": "system", "content": "Be exact."},
                            {"role": "user", "content": ["Look:", img]}])
    assert chat[0] == {"role": "system", "content": "Be exact."}
    assert chat[1]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    with pytest.raises(ValueError, match="prompt_img"):
        prompt_messages({"prompt_txt": "no picture"})
    with pytest.raises(ValueError, match="content part 0"):
        prompt_messages([3.5])


def test_image_dir_writes_content_hash_files_relative_to_the_output(tmp_path: Path):
    out = tmp_path / "data" / "charts.jsonl"
    run("bc-gen", "chart_read", "-n", 8, "--seed", 3, "-o", out, "--image-dir", tmp_path / "data" / "img")
    inline = rows(run("bc-gen", "chart_read", "-n", 8, "--seed", 3).stdout)
    for task, same in zip(rows(out), inline, strict=True):
        (url,) = image_urls(task["prompt"])
        assert url.startswith("img/") and url.endswith(".png")
        data = (out.parent / url).read_bytes()
        assert url == f"img/{hashlib.sha256(data).hexdigest()}.png"
        assert data == decode_data_url(image_urls(same["prompt"])[0])[0]
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["charts.jsonl", "img"]
    proc = run("bc-gen", "chart_read", "-n", 2, "--image-dir", tmp_path / "x", "--format", "parquet",
               "-o", tmp_path / "t.parquet", check=False)
    assert proc.returncode == 2 and b"--image-dir is for JSONL" in proc.stderr


def test_task_set_renders_the_same_picture_from_the_identity():
    tasks = TaskSet("chart_read", seed=9)
    assert tasks[5] == TaskSet("chart_read", seed=9)[5]
    assert image_urls(tasks[5]["prompt"]) != image_urls(tasks[6]["prompt"])
