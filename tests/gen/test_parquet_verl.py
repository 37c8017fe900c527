"""`bc-gen --format parquet` writes verl's RL layout: native struct/list columns that verl's RLHFDataset loads as
written, with the identity as JSON text in fixed keys (SPEC §6) and the exact rows on the way back (issue 9)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bc_common.parquet_io import read_parquet

BIN = Path(sys.executable).parent


def gen(*args: object) -> bytes:
    proc = subprocess.run([str(BIN / "bc-gen"), *map(str, args)], capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("parquet")
    out = {}
    for name in ("arithmetic", "tictactoe"):
        out[name] = tmp / f"{name}.parquet"
        gen(name, "-n", "12", "--seed", "3", "-o", out[name])
    mixed = gen("arithmetic", "-n", "6") + gen("tictactoe", "-n", "6") + gen("noop", "-n", "3")
    (tmp / "mixed.jsonl").write_bytes(mixed)
    subprocess.run([str(BIN / "bc-filter"), tmp / "mixed.jsonl", "-o", tmp / "mixed.parquet"], check=True,
                   timeout=120)
    out["mixed"] = tmp / "mixed.parquet"
    out["mixed_jsonl"] = tmp / "mixed.jsonl"
    return out


def test_columns_are_structs_and_lists_not_json_text(files):
    schema = pq.read_schema(files["arithmetic"])
    assert schema.field("prompt").type == pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
    reward_model = schema.field("reward_model").type
    assert pa.types.is_struct(reward_model) and reward_model.field("ground_truth").type == pa.string()
    extra = schema.field("extra_info").type
    assert pa.types.is_struct(extra)
    assert pa.types.is_struct(extra.field("tools_kwargs").type) and pa.types.is_struct(
        extra.field("interaction_kwargs").type)
    assert read_parquet(files["arithmetic"]) == [orjson.loads(x) for x in gen("arithmetic", "-n", "12", "--seed",
                                                                               "3").splitlines()]


def test_rows_of_several_bootcamps_share_one_shape(files):
    table = pq.read_table(files["mixed"])
    assert table.num_rows == 15
    rows = table.to_pylist()
    assert len({orjson.dumps(sorted(r["extra_info"])) for r in rows}) == 1
    assert all(set(r["extra_info"]["tools_kwargs"]) == {"calculate"} for r in rows)  # same keys in every row
    assert {tuple(r["extra_info"]["tool_selection"]) for r in rows} == {("calculate",), ()}
    assert read_parquet(files["mixed"]) == [orjson.loads(x) for x in files["mixed_jsonl"].read_bytes().splitlines()]


@pytest.mark.verl
@pytest.mark.parametrize("name", ["arithmetic", "tictactoe", "mixed"])
def test_verl_rlhf_dataset_loads_the_file_as_written(files, name, tmp_path):
    pytest.importorskip("verl")
    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from bc_train.tokenizer import build_offline_tokenizer
    from bc_train.verl_tool import decode_create_kwargs

    tokenizer = build_offline_tokenizer(tmp_path / "tok")
    config = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 4096, "filter_overlong_prompts": True,
                               "filter_overlong_prompts_workers": 1, "truncation": "error", "return_raw_chat": True})
    dataset = RLHFDataset(data_files=[str(files[name])], tokenizer=tokenizer, config=config, processor=None)
    rows = read_parquet(files[name])
    assert len(dataset) == len(rows)
    for i in range(len(dataset)):
        item, row = dataset[i], rows[i]
        assert item["raw_prompt"] == row["prompt"]
        assert item["data_source"] == row["data_source"] and item["agent_name"] == row["agent_name"]
        assert orjson.loads(item["reward_model"]["ground_truth"]) == row["reward_model"]["ground_truth"]
        assert item["index"] == row["extra_info"]["index"]
        for tool, kwargs in row["extra_info"]["tools_kwargs"].items():
            assert decode_create_kwargs(item["tools_kwargs"][tool]["create_kwargs"]) == kwargs["create_kwargs"]
        interaction = row["extra_info"]["interaction_kwargs"]
        assert item["interaction_kwargs"]["name"] == interaction.get("name", "")
        assert orjson.loads(item["interaction_kwargs"]["bc_json"]) == interaction
