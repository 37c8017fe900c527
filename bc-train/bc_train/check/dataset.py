"""Step dataset: verl's RLHFDataset (or our SFT dataset) loads the data with an offline tokenizer; images go through
verl's vision path."""
from __future__ import annotations

from typing import Any

from .failure import CheckFailed
from .files import SAMPLE_ROWS

RL_COLUMNS = {"data_source", "prompt", "reward_model", "extra_info", "agent_name"}


SFT_COLUMNS = {"messages", "tools"}


def image_count(path: str, key: str) -> int:
    """Images in the first rows of a parquet file's image column (0 without one)."""
    import pyarrow.parquet as pq

    if key not in pq.read_schema(path).names:
        return 0
    return sum(len(v or []) for v in pq.read_table(path, columns=[key]).slice(0, SAMPLE_ROWS).column(key).to_pylist())


def placeholders_match(path: str, column: str, key: str) -> None:
    """Every sample row has as many `<image>` placeholders in its text as images (verl pairs them in order)."""
    import pyarrow.parquet as pq

    names = pq.read_schema(path).names
    table = pq.read_table(path, columns=[c for c in (column, key) if c in names]).slice(0, SAMPLE_ROWS)
    for i, row in enumerate(table.to_pylist()):
        holes = sum(str(m.get("content") or "").count("<image>") for m in row.get(column) or [])
        images = len(row.get(key) or [])
        if holes != images:
            raise CheckFailed("dataset", f"{path} row {i}: {holes} <image> placeholder(s) but {images} image(s) "
                                         f"in column {key!r}")


def processor_for(cfg: Any, paths: list[str], column: str = "prompt") -> Any:
    """An offline Qwen2-VL style processor when the files hold images (verl needs one for them), else None."""
    key = cfg.data.get("image_key", "images")
    for p in paths:
        if p:
            placeholders_match(p, column, key)
    if not any(image_count(p, key) for p in paths if p):
        return None
    from ..tokenizer import build_offline_processor

    return build_offline_processor()


def check_images(messages: list[dict[str, Any]], processor: Any, where: str) -> int:
    """Run verl's own vision path on a row's messages (qwen_vl_utils + the processor); the image tokens made."""
    from verl.utils.dataset.rl_dataset import RLHFDataset
    from verl.utils.tokenizer import build_multimodal_processor_inputs

    wanted = sum(1 for m in messages if isinstance(m.get("content"), list)
                 for p in m["content"] if isinstance(p, dict) and p.get("type") == "image")
    try:
        if torchvision():
            images, videos, _ = RLHFDataset._process_multi_modal_info(messages, 14, {})
        else:  # verl's qwen_vl_utils step needs torchvision: hand the processor the dataset's images as they are
            images = [p["image"].convert("RGB") for m in messages if isinstance(m.get("content"), list)
                      for p in m["content"] if isinstance(p, dict) and p.get("type") == "image"] or None
            videos = None
        text = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        inputs = build_multimodal_processor_inputs(processor, text=[text], images=images, videos=videos)
    except Exception as exc:
        raise CheckFailed("dataset", f"{where}: verl's vision path failed: {type(exc).__name__}: {exc}") from None
    tokens = int((inputs["input_ids"][0] == processor.image_token_id).sum())
    if len(images or []) != wanted or (wanted and tokens == 0):
        raise CheckFailed("dataset", f"{where}: {wanted} image placeholder(s) gave {len(images or [])} image(s) "
                                     f"and {tokens} image token(s)")
    return wanted


def torchvision() -> bool:
    """Whether verl's vision utilities (qwen_vl_utils) can import: they need torchvision, which the `verl` extra
    does not bring on CPU (verl's GPU images have it)."""
    try:
        import qwen_vl_utils  # noqa: F401
    except Exception:
        return False
    return True


def check_rl_dataset(cfg: Any, tokenizer: Any) -> tuple[list[dict[str, Any]], int]:
    import pyarrow.parquet as pq
    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import RLHFDataset

    files = [cfg.data.train_files, cfg.data.val_files]
    processor = processor_for(cfg, files)
    if processor is not None:
        tokenizer = processor.tokenizer
    items, images = [], 0
    for path in files:
        columns = set(pq.read_schema(path).names)
        if not RL_COLUMNS <= columns:
            raise CheckFailed("dataset", f"{path}: missing column(s) {sorted(RL_COLUMNS - columns)}")
        data_config = OmegaConf.merge(cfg.data, {"filter_overlong_prompts_workers": 1})
        if processor is not None and not torchvision():  # verl's length filter runs qwen_vl_utils on images
            data_config = OmegaConf.merge(data_config, {"filter_overlong_prompts": False})
        try:
            dataset = RLHFDataset(data_files=[path], tokenizer=tokenizer, config=data_config, processor=processor)
            item = dataset[0]
        except Exception as exc:
            raise CheckFailed("dataset", f"RLHFDataset({path}): {type(exc).__name__}: {exc}") from None
        if len(dataset) == 0:
            raise CheckFailed("dataset", f"{path}: no rows left (prompts longer than data.max_prompt_length?)")
        for key in ("raw_prompt", "data_source", "reward_model", "tools_kwargs", "interaction_kwargs", "agent_name"):
            if key not in item:
                raise CheckFailed("dataset", f"{path}: RLHFDataset item lacks {key!r}")
        if processor is not None:
            for i in range(min(len(dataset), SAMPLE_ROWS)):
                images += check_images(dataset[i]["raw_prompt"], processor, f"{path} row {i}")
        items.append(item)
    return items, images


def check_sft_dataset(cfg: Any, tokenizer: Any) -> str:
    import pyarrow.parquet as pq
    from verl.utils.import_utils import load_extern_object

    paths = [p for p in (cfg.data.train_files, cfg.data.val_files) if p]
    processor = processor_for(cfg, paths, cfg.data.get("messages_key", "messages"))
    if processor is not None:
        tokenizer = processor.tokenizer
    images = 0
    try:
        cls = load_extern_object(cfg.data.custom_cls.path, cfg.data.custom_cls.name)
    except Exception as exc:
        raise CheckFailed("dataset", f"data.custom_cls: {type(exc).__name__}: {exc}") from None
    total = 0
    for path in paths:
        columns = set(pq.read_schema(path).names)
        if not SFT_COLUMNS <= columns:
            raise CheckFailed("dataset", f"{path}: missing column(s) {sorted(SFT_COLUMNS - columns)}")
        try:
            dataset = cls(parquet_files=path, tokenizer=tokenizer, config=cfg.data, processor=processor)
            for i in range(min(len(dataset), SAMPLE_ROWS)):
                item = dataset[i]
                if int(item["loss_mask"].sum()) == 0:
                    raise CheckFailed("dataset", f"{path} row {i}: no assistant tokens to learn from")
                if processor is not None:
                    pixels = (item.get("multi_modal_inputs") or {}).get("pixel_values")
                    wanted = image_count_row(path, i, cfg.data.get("image_key", "images"))
                    if wanted and (pixels is None or int(pixels.shape[0]) == 0):
                        raise CheckFailed("dataset", f"{path} row {i}: {wanted} image(s) but no pixel_values")
                    images += wanted
        except CheckFailed:
            raise
        except Exception as exc:
            raise CheckFailed("dataset", f"{cls.__name__}({path}): {type(exc).__name__}: {exc}") from None
        total += len(dataset)
    note = f"; {images} image(s) through the offline Qwen2-VL processor" if processor is not None else ""
    return f"{total} row(s), chat template applied with tools{note}"


def image_count_row(path: str, i: int, key: str) -> int:
    import pyarrow.parquet as pq

    return len(pq.read_table(path, columns=[key]).slice(i, 1).column(key).to_pylist()[0] or [])
