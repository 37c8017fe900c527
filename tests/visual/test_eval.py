"""bc-eval on visual tasks, against the scripted OpenAI-compatible server on loopback: the exact request body
(system prompt kept, parts in order, size limits applied), the seed's `image` field resolved relative to the
dataset file, --no-store-images, and the builtin models."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import pytest

from bc_common.images import ImageLimits, data_url, decode_data_url, encode_png
from bc_eval.testing import ScriptedServer

from .helpers import image_urls, picture, rows, run, write_rows

IDENTITY = {"kind": "bar", "x": ["a", "b"], "series": [{"name": "Oak", "values": [5, 9]}, {"name": "Elm",
                                                                                         "values": [7, 3]}],
            "question": {"type": "largest", "x": "b"}, "answer": "Oak"}


def image(size: tuple[int, int], color: tuple[int, int, int] = (200, 30, 30)) -> Any:
    from PIL import Image

    return Image.new("RGB", size, color)


def task(prompt: Any, **extra: Any) -> dict[str, Any]:
    return {"id": "visual-0", "data_source": "bootcamp/chart_read", "prompt": prompt,
            "reward_model": {"style": "rule", "ground_truth": IDENTITY},
            "extra_info": {"split": "test", "index": 0}, **extra}


@pytest.fixture
def server():
    s = ScriptedServer(default=[{"content": "Oak is taller at b. <answer>Oak</answer>"}])
    with s.running() as url:
        yield s, url


def eval_rows(tasks: Path, url: str, *flags: Any, cwd: Path | None = None, env: dict[str, str] | None = None,
              out: Path | None = None) -> tuple[list[dict[str, Any]], str]:
    out = out or tasks.with_suffix(".out.jsonl")
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "-o", out, *flags, cwd=cwd, env=env)
    return rows(out), proc.stderr.decode()


def test_exact_request_body_keeps_system_parts_in_order_and_applies_the_pixel_budget(tmp_path: Path, server):
    s, url = server
    big = encode_png(image((400, 200)))
    prompt = [{"role": "system", "content": "You read charts exactly."},
              {"role": "user", "content": [{"type": "text", "text": "Look at this chart:"},
                                           {"type": "image_url", "image_url": {"url": data_url(big)}},
                                           {"type": "text", "text": "Which series is largest at b?"}]}]
    tasks = write_rows(tmp_path / "tasks.jsonl", [task(prompt)])
    trajectories, _ = eval_rows(tasks, url, "--max-image-pixels", 20000)
    (request,) = s.requests
    sent = decode_data_url(request["body"]["messages"][1]["content"][1]["image_url"]["url"])[0]
    assert request["body"] == {"model": "scripted", "messages": [
        {"role": "system", "content": "You read charts exactly."},
        {"role": "user", "content": [{"type": "text", "text": "Look at this chart:"},
                                     {"type": "image_url", "image_url": {"url": data_url(sent)}},
                                     {"type": "text", "text": "Which series is largest at b?"}]}]}
    assert picture(data_url(sent)).size == (200, 100)  # 80,000 px over a 20,000 px budget: halved, aspect kept
    assert picture(data_url(sent)).getpixel((100, 50)) == (200, 30, 30)
    (traj,) = trajectories
    assert traj["score"] == 1.0 and traj["messages"][:2] == request["body"]["messages"]  # kept as sent
    assert traj["input"]["prompt"] == prompt  # the task row verbatim


def test_small_images_are_upsized_from_the_seed_environment_variable(tmp_path: Path, server):
    s, url = server
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url(encode_png(
        image((10, 5))))}}, {"type": "text", "text": "Which?"}]}]
    tasks = write_rows(tmp_path / "tasks.jsonl", [task(prompt)])
    eval_rows(tasks, url, env={"MIN_IMAGE_EDGE": "28"})
    assert picture(image_urls(s.requests[-1]["body"]["messages"])[0]).size == (56, 28)
    eval_rows(tasks, url, "--min-image-edge", 0, env={"MIN_IMAGE_EDGE": "28"},
              out=tmp_path / "flag.jsonl")  # a flag wins over the variable
    assert picture(image_urls(s.requests[-1]["body"]["messages"])[0]).size == (10, 5)
    eval_rows(tasks, url, env={"MAX_IMAGE_SIZE": "18"}, out=tmp_path / "max.jsonl")
    assert picture(image_urls(s.requests[-1]["body"]["messages"])[0]).size == (6, 3)
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", env={"MAX_IMAGE_SIZE": "big"},
               check=False)
    assert proc.returncode == 2 and b"MAX_IMAGE_SIZE" in proc.stderr


def test_images_within_the_limits_are_sent_byte_for_byte(tmp_path: Path, server):
    s, url = server
    url_in = data_url(encode_png(image((64, 48))))
    prompt = [{"role": "user", "content": [{"type": "text", "text": "Which?"},
                                           {"type": "image_url", "image_url": {"url": url_in, "detail": "high"}}]}]
    eval_rows(write_rows(tmp_path / "tasks.jsonl", [task(prompt)]), url, "--max-image-pixels", 10000,
              "--min-image-edge", 28)
    assert s.requests[0]["body"]["messages"] == prompt


def test_seed_image_field_resolves_relative_to_the_dataset_file(tmp_path: Path, server):
    s, url = server
    data = tmp_path / "data"
    (data / "pics").mkdir(parents=True)
    image((30, 20), (0, 0, 255)).save(data / "pics" / "a.png")
    image((20, 30), (0, 255, 0)).save(data / "pics" / "b.png")
    prompt = [{"role": "system", "content": "Be brief."},
              {"role": "user", "content": "First <image> then <image>: which is taller?"}]
    tasks = write_rows(data / "tasks.jsonl", [task(prompt, image=["pics/a.png", "pics/b.png"])])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    eval_rows(tasks, url, cwd=elsewhere)
    messages = s.requests[0]["body"]["messages"]
    assert messages[0] == {"role": "system", "content": "Be brief."}
    parts = messages[1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "text", "image_url", "text"]
    assert [p.get("text") for p in parts if p["type"] == "text"] == ["First ", " then ", ": which is taller?"]
    assert picture(parts[1]["image_url"]["url"]).getpixel((0, 0)) == (0, 0, 255)
    assert picture(parts[3]["image_url"]["url"]).size == (20, 30)
    assert "<image>" not in orjson.dumps(messages).decode()


def test_seed_image_without_placeholders_goes_before_the_text(tmp_path: Path, server):
    s, url = server
    image((8, 8)).save(tmp_path / "x.png")
    tasks = write_rows(tmp_path / "t.jsonl", [task("What colour is it?", image="x.png")])
    eval_rows(tasks, url)
    (msg,) = s.requests[0]["body"]["messages"]
    assert [p["type"] for p in msg["content"]] == ["image_url", "text"]


def test_a_missing_image_names_the_file_and_line(tmp_path: Path, server):
    _, url = server
    tasks = write_rows(tmp_path / "t.jsonl", [task("ok", image="x.png"), task("ok", image="gone.png")])
    image((8, 8)).save(tmp_path / "x.png")
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", check=False)
    assert proc.returncode == 2
    assert f"{tasks}:2: image: cannot read image".encode() in proc.stderr and b"gone.png" in proc.stderr
    dry = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "--dry-run", check=False)
    assert dry.returncode == 2 and f"{tasks}:2: image:".encode() in dry.stderr
    skipped = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "--skip-invalid")
    assert len(rows(skipped.stdout)) == 1 and b"skipped 1 invalid" in skipped.stderr


def test_no_store_images_keeps_hashes_and_says_so(tmp_path: Path, server):
    _, url = server
    png = encode_png(image((50, 40)))
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url(png)}},
                                           {"type": "text", "text": "Which?"}]}]
    tasks = write_rows(tmp_path / "t.jsonl", [task(prompt)])
    (traj,), stderr = eval_rows(tasks, url, "--no-store-images", "--summary", tmp_path / "s.json")
    digest = "sha256:" + hashlib.sha256(png).hexdigest()
    assert image_urls(traj["messages"]) == [digest] and image_urls(traj["input"]["prompt"]) == [digest]
    assert "data:image" not in orjson.dumps(traj).decode()
    assert "stored as sha256 hashes only" in stderr
    assert orjson.loads((tmp_path / "s.json").read_bytes())["images"] == {"count": 1, "stored": "sha256"}


def test_builtin_models_play_the_visual_bootcamps(tmp_path: Path):
    for name in ("chart_read", "container_water", "grid_maze"):
        tasks = tmp_path / f"{name}.jsonl"
        tasks.write_bytes(run("bc-gen", name, "-n", 30, "--seed", 1).stdout)
        ref = rows(run("bc-eval", tasks, "--model", "builtin:reference", "-q").stdout)
        assert [t["score"] for t in ref] == [1.0] * 30
        assert all(image_urls(t["messages"]) for t in ref)
        noisy = rows(run("bc-eval", tasks, "--model", "builtin:noisy", "--param", "error_rate=1.0", "-q").stdout)
        assert max(t["score"] for t in noisy) < 1.0
        assert all(t["usage"]["prompt_tokens"] < 2000 for t in ref)  # an image counts ~256 tokens, not its URL


def test_limits_target_sizes():
    assert ImageLimits(max_pixels=100).target(20, 20) == (10, 10)
    assert ImageLimits(min_edge=28).target(14, 100) == (28, 200)
    assert ImageLimits(max_pixels=1000, min_edge=28).target(5, 1000) is not None
    w, h = ImageLimits(max_pixels=1000, min_edge=28).target(5, 1000)
    assert w * h <= 1000  # the pixel budget wins
    assert ImageLimits(max_pixels=400, min_edge=10).target(20, 20) is None
    assert ImageLimits.resolve(environ={"MAX_IMAGE_SIZE": "0"}) == ImageLimits()


def test_the_openai_sdk_client_sends_the_same_parts(tmp_path: Path, server):
    s, url = server
    prompt = [{"role": "system", "content": "You read charts."},
              {"role": "user", "content": [{"type": "text", "text": "Look:"},
                                           {"type": "image_url", "image_url": {"url": data_url(encode_png(
                                               image((300, 300))))}}]}]
    tasks = write_rows(tmp_path / "t.jsonl", [task(prompt)])
    (traj,), _ = eval_rows(tasks, url, "--client", "openai", "--max-image-pixels", 10000)
    sent = s.requests[-1]["body"]["messages"]
    assert sent[0] == prompt[0] and sent[1]["content"][0] == prompt[1]["content"][0]
    assert picture(sent[1]["content"][1]["image_url"]["url"]).size == (100, 100)
    assert traj["score"] == 1.0 and traj["messages"][:2] == sent


def test_resume_under_other_image_settings_is_refused(tmp_path: Path, server):
    _, url = server
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url(encode_png(
        image((40, 40))))}}, {"type": "text", "text": "Which?"}]}]
    tasks = write_rows(tmp_path / "t.jsonl", [task(prompt)])
    out = tmp_path / "out.jsonl"
    eval_rows(tasks, url, "--max-image-pixels", 400, out=out)
    proc = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "-o", out, "--resume", check=False)
    assert proc.returncode == 2 and b"images" in proc.stderr and b"max_pixels" in proc.stderr
    same = run("bc-eval", tasks, "--base-url", url, "--model", "scripted", "-o", out, "--resume",
               "--max-image-pixels", 400)
    assert b"kept 1 finished" in same.stderr
