"""Images through bc-filter (every shape keeps them; --strip-images drops them) and bc-train (verl's multimodal
rows: `<image>` placeholders and an `images` column), and the acceptance pipeline chart_read -> bc-eval
reference -> bc-filter --to sft -> bc-train RL and SFT -> bc-train --check (verl marker)."""
from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from bc_common.images import decode_data_url
from bc_common.parquet_io import read_parquet, write_parquet
from bc_common.verl_rows import task_row, verl_prompt, verl_rows

from .helpers import image_urls, rows, run


@pytest.fixture(scope="module")
def visual_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """chart_read -n 20 --seed 3 (the acceptance rows), a grid_maze sample with tool calls, and their
    trajectories by the reference policy."""
    folder = tmp_path_factory.mktemp("visual")
    run("bc-gen", "chart_read", "-n", 20, "--seed", 3, "-o", folder / "tasks.jsonl")
    run("bc-eval", folder / "tasks.jsonl", "--model", "builtin:reference", "-o", folder / "traj.jsonl", "-q")
    run("bc-gen", "grid_maze", "-n", 6, "--seed", 3, "--group", "hard", "-o", folder / "maze.jsonl")
    run("bc-eval", folder / "maze.jsonl", "--model", "builtin:reference", "-o", folder / "maze_traj.jsonl", "-q")
    return folder


def test_every_shape_keeps_the_images(visual_run: Path):
    traj = rows(visual_run / "traj.jsonl")
    sent = [image_urls(t["messages"]) for t in traj]
    assert all(len(u) == 1 and u[0].startswith("data:image/png") for u in sent)
    for shape in ("sft", "messages", "training"):
        out = rows(run("bc-filter", "--to", shape, visual_run / "traj.jsonl").stdout)
        assert [image_urls(r["messages"]) for r in out] == sent, shape
    tasks = rows(run("bc-filter", "--to", "task", visual_run / "traj.jsonl").stdout)
    assert tasks == rows(visual_run / "tasks.jsonl")
    prefixes = rows(run("bc-filter", "--expand-prefixes", "--success", visual_run / "maze_traj.jsonl").stdout)
    assert len(prefixes) == 12  # a look call, then the answer
    assert all(image_urls(p["messages"]) for p in prefixes)


def test_strip_images_makes_a_text_only_slice(visual_run: Path):
    sft = rows(run("bc-filter", "--to", "sft", "--strip-images", visual_run / "traj.jsonl").stdout)
    for row in sft:
        user = row["messages"][0]
        assert isinstance(user["content"], str)
        assert user["content"].startswith("The ") and "<answer>" in user["content"]
        assert "data:image" not in orjson.dumps(row).decode()
    tasks = rows(run("bc-filter", "--strip-images", visual_run / "tasks.jsonl").stdout)
    assert len(tasks) == 20 and not any(image_urls(t["prompt"]) for t in tasks)
    whole = rows(run("bc-filter", "--strip-images", visual_run / "traj.jsonl").stdout)
    assert not any(image_urls(t["messages"]) or image_urls(t["input"]["prompt"]) for t in whole)


def test_verl_rows_carry_images_and_round_trip(visual_run: Path, tmp_path: Path):
    tasks = rows(visual_run / "tasks.jsonl")
    converted = verl_rows(tasks)
    for original, row in zip(tasks, converted, strict=True):
        text = row["prompt"][0]["content"]
        assert text.count("<image>") == len(row["images"]) == 1
        assert row["images"][0]["bytes"] == decode_data_url(image_urls(original["prompt"])[0])[0]
        assert task_row(row) == original
    write_parquet(tasks, tmp_path / "t.parquet")  # bc-gen --format parquet and bc-filter use this
    assert read_parquet(tmp_path / "t.parquet") == tasks
    run("bc-filter", visual_run / "tasks.jsonl", "-o", tmp_path / "f.parquet")
    run("bc-filter", tmp_path / "f.parquet", "-o", tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_bytes() == (visual_run / "tasks.jsonl").read_bytes()


def test_verl_prompt_refuses_what_verl_cannot_read():
    from bc_common.errors import InputError

    with pytest.raises(InputError, match="literal <image>"):
        verl_prompt([{"role": "user", "content": "a literal <image> in text"}])
    with pytest.raises(InputError, match="no-store-images"):
        verl_prompt([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "sha256:ab"}}]}])


def test_bc_train_writes_multimodal_rows(visual_run: Path, tmp_path: Path):
    import pyarrow.parquet as pq

    sft = tmp_path / "sft.jsonl"
    sft.write_bytes(run("bc-filter", "--to", "sft", visual_run / "traj.jsonl").stdout)
    run("bc-train", visual_run / "tasks.jsonl", "-o", tmp_path / "rl")
    run("bc-train", "--mode", "sft", sft, "-o", tmp_path / "sft")
    for folder, column in (("rl", "prompt"), ("sft", "messages")):
        table = pq.read_table(tmp_path / folder / "train.parquet")
        assert str(table.schema.field("images").type) == "list<element: struct<bytes: binary>>"
        for row in table.to_pylist():
            text = "".join(m["content"] for m in row[column])
            assert text.count("<image>") == len(row["images"]) == 1
            assert row["images"][0]["bytes"].startswith(b"\x89PNG")


@pytest.mark.verl
@pytest.mark.slow
def test_acceptance_pipeline_passes_verl_check(visual_run: Path, tmp_path: Path):
    pytest.importorskip("verl")
    traj = rows(visual_run / "traj.jsonl")
    assert len(traj) == 20 and all(t["score"] == 1.0 for t in traj)
    sft = tmp_path / "sft.jsonl"
    sft.write_bytes(run("bc-filter", "--to", "sft", visual_run / "traj.jsonl").stdout)
    run("bc-train", visual_run / "tasks.jsonl", "-o", tmp_path / "rl")
    run("bc-train", "--mode", "sft", sft, "-o", tmp_path / "sft")
    rl = run("bc-train", "--check", tmp_path / "rl").stderr.decode()
    assert "image(s) through" in rl and "offline Qwen2-VL processor" in rl and "verl 0.9.1 accepts" in rl
    sft_check = run("bc-train", "--check", tmp_path / "sft").stderr.decode()
    assert "image(s) through the offline Qwen2-VL processor" in sft_check and "verl 0.9.1 accepts" in sft_check


@pytest.mark.verl
@pytest.mark.slow
def test_check_fails_when_images_and_placeholders_disagree(visual_run: Path, tmp_path: Path):
    pytest.importorskip("verl")
    import pyarrow as pa
    import pyarrow.parquet as pq

    run("bc-train", visual_run / "tasks.jsonl", "-o", tmp_path / "rl")
    path = tmp_path / "rl" / "train.parquet"
    table = pq.read_table(path)
    emptied = pa.array([[] for _ in range(table.num_rows)], type=table.schema.field("images").type)
    pq.write_table(table.set_column(table.schema.get_field_index("images"), "images", emptied), path)
    proc = run("bc-train", "--check", tmp_path / "rl", check=False)
    assert proc.returncode != 0
    assert b"FAIL dataset" in proc.stderr and b"1 <image> placeholder(s) but 0 image(s)" in proc.stderr


def test_bc_train_reads_image_files_relative_to_the_task_file(tmp_path: Path):
    import pyarrow.parquet as pq

    data = tmp_path / "data"
    run("bc-gen", "container_water", "-n", 6, "--seed", 8, "-o", data / "t.jsonl", "--image-dir", data / "img")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run("bc-train", data / "t.jsonl", "-o", tmp_path / "rl", cwd=elsewhere)
    inline = {r["id"]: r for r in rows(run("bc-gen", "container_water", "-n", 6, "--seed", 8).stdout)}
    written = pq.read_table(tmp_path / "rl" / "train.parquet").to_pylist() + \
        pq.read_table(tmp_path / "rl" / "val.parquet").to_pylist()
    assert len(written) == 6
    for row in written:
        expected = decode_data_url(image_urls(inline[row["id"]]["prompt"])[0])[0]
        assert [i["bytes"] for i in row["images"]] == [expected]
