"""`bc-train --check DIR`: verl itself composes, validates and loads everything in a run directory.

Steps (each named on failure): files (manifest, config.yaml, run.sh), keys (stale or unknown keys in
config.yaml and --set overrides), compose (Hydra over verl's packaged configs), resolve, files (every data and
config file the config reads exists; a note when they lie outside the directory), validate (verl's validate_config; dataclasses of rollout and
algorithm, or of the SFT engine/optim/checkpoint), tools (verl's tool registry; create -> execute -> release
on sample rows), agent_loops (every `_target_` imports; every row's agent_name is registered), dataset
(verl's RLHFDataset / our SFT dataset with an offline tokenizer; columns), reward (verl's custom reward
loader, called on sample rows; the same keys every time; a reference solution scores 1.0). CPU, no network.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson

from .verl_config import MANIFEST

RL_COLUMNS = {"data_source", "prompt", "reward_model", "extra_info", "agent_name"}
SFT_COLUMNS = {"messages", "tools"}
# Keys verl dropped (or never reads) that still compose: they would silently do nothing.
STALE_KEYS = {
    "actor_rollout_ref.rollout.multi_turn.interaction_config_path":
        "verl 0.8 removed interactions; bc_agent (agent_loops.yaml) runs the bootcamp's interaction",
    "custom_reward_function.path": "legacy top-level key, ignored by main_ppo; use reward.custom_reward_function",
    "custom_reward_function.name": "legacy top-level key, ignored by main_ppo; use reward.custom_reward_function",
}
OUR_EXTRA_KEYS = {"reward.custom_reward_function.reward_kwargs"}
SAMPLE_ROWS = 4


class VerlMissing(Exception):
    """verl (the `verl` extra) is not installed."""


class CheckFailed(Exception):
    def __init__(self, step: str, message: str):
        self.step, self.message = step, message
        super().__init__(f"{step}: {message}")


def _require_verl() -> None:
    try:
        import verl  # noqa: F401
    except ImportError:
        raise VerlMissing("--check needs verl 0.9.1: pip install -e '.[verl]' "
                          "(pip install torch==2.13.0 'verl[verl-core]==0.9.1' works on CPU)") from None


def _leaf_paths(node: Any, prefix: str = "") -> list[str]:
    if isinstance(node, dict) and node:
        out = []
        for key, value in node.items():
            out += _leaf_paths(value, f"{prefix}.{key}" if prefix else str(key))
        return out
    return [prefix]


def _override_key(override: str) -> tuple[str, bool]:
    key = override.split("=", 1)[0].strip()
    added = key.startswith("+")
    return key.lstrip("+~"), added


def _check_keys(raw: dict[str, Any], overrides: list[str], base: Any) -> None:
    """Refuse stale keys, and keys in config.yaml or `+key=` overrides that verl's base config lacks."""
    from omegaconf import OmegaConf

    paths = _leaf_paths({k: v for k, v in raw.items() if k not in ("hydra", "defaults")})
    for override in overrides:
        key, _ = _override_key(override)
        paths.append(key)
    for path in paths:
        for stale, why in STALE_KEYS.items():
            if path == stale or path.startswith(stale + "."):
                if stale.startswith("custom_reward_function") and _is_null_legacy(raw, overrides, stale):
                    continue
                raise CheckFailed("keys", f"stale key {path!r}: {why}")
        if any(path == k or path.startswith(k + ".") for k in OUR_EXTRA_KEYS):
            continue
        parent, _, leaf = path.rpartition(".")
        node = OmegaConf.select(base, parent) if parent else base
        if node is None or not OmegaConf.is_dict(node):
            continue  # inside a free-form value (e.g. a list or an engine_kwargs mapping)
        if leaf not in set(node.keys()) and not _free_form(node):
            import difflib

            close = difflib.get_close_matches(leaf, [str(k) for k in node.keys()], n=1)
            hint = f" (did you mean {parent + '.' if parent else ''}{close[0]}?)" if close else ""
            raise CheckFailed("keys", f"unknown key {path!r}: verl 0.9.1 has no such setting{hint}")


def _is_null_legacy(raw: dict[str, Any], overrides: list[str], key: str) -> bool:
    for override in overrides:
        k, _ = _override_key(override)
        if k == key:
            return override.split("=", 1)[1].strip() in ("null", "None", "")
    node: Any = raw
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node is None


def _free_form(node: Any) -> bool:
    return len(node) == 0  # an empty mapping in verl's defaults (e.g. engine_kwargs.vllm) takes any key


def _base_config(base_name: str) -> Any:
    """verl's own packaged config (ppo_trainer or sft_trainer_engine), to tell known keys from unknown ones."""
    from hydra import compose, initialize_config_module
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_module(config_module="verl.trainer.config", version_base=None):
            return compose(config_name=base_name)
    finally:
        GlobalHydra.instance().clear()


def _compose(run_dir: Path, overrides: list[str]) -> Any:
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(run_dir.resolve()), version_base=None):
            return compose(config_name="config", overrides=list(overrides))
    except Exception as exc:
        cause = f" ({exc.__cause__})" if exc.__cause__ else ""
        raise CheckFailed("compose", f"{type(exc).__name__}: {exc}{cause}") from None
    finally:
        GlobalHydra.instance().clear()


def _validate_rl(cfg: Any) -> None:
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config

    try:
        validate_config(cfg, use_reference_policy=need_reference_policy(cfg), use_critic=need_critic(cfg))
        omega_conf_to_dataclass(cfg.actor_rollout_ref.rollout)
        omega_conf_to_dataclass(cfg.algorithm)
    except Exception as exc:
        raise CheckFailed("validate", f"{type(exc).__name__}: {exc}") from None
    if not cfg.actor_rollout_ref.rollout.multi_turn.enable:
        raise CheckFailed("validate", "actor_rollout_ref.rollout.multi_turn.enable is false: tools and "
                                      "feedback turns would never run")


def _validate_sft(cfg: Any) -> None:
    from verl.utils.config import omega_conf_to_dataclass

    try:
        for section in ("engine", "optim", "checkpoint", "profiler"):
            omega_conf_to_dataclass(cfg[section])
    except Exception as exc:
        raise CheckFailed("validate", f"{type(exc).__name__}: {exc}") from None


def _read_rows(path: Path, n: int = SAMPLE_ROWS) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return pq.read_table(path).slice(0, n).to_pylist()


def _sample_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Minimal arguments a tool's schema accepts (to exercise create -> execute -> release)."""
    by_type = {"string": "1", "number": 1, "integer": 1, "boolean": True, "array": [], "object": {}}
    params = schema.get("parameters") or {}
    out = {}
    for name in params.get("required") or []:
        prop = (params.get("properties") or {}).get(name, {})
        if prop.get("enum"):
            out[name] = prop["enum"][0]
        else:
            kind = prop.get("type", "string")
            out[name] = by_type.get(kind[0] if isinstance(kind, list) else kind, "1")
    return out


async def _exercise_tools(tools: dict[str, Any], rows: list[dict[str, Any]]) -> int:
    from .verl_tool import BcVerlTool

    calls = 0
    for i, row in enumerate(rows):
        extra = row.get("extra_info") or {}
        agent_data = SimpleNamespace(bc_trajectory_id=f"check-{i}", request_id=f"check-{i}")
        for name in extra.get("tool_selection") or []:
            if name not in tools:
                raise CheckFailed("tools", f"row {i} selects tool {name!r}, which tool_config.yaml lacks")
            tool = tools[name]
            kwargs = (extra.get("tools_kwargs") or {}).get(name) or {}
            instance_id, _ = await tool.create(create_kwargs=kwargs.get("create_kwargs", {}))
            try:
                result = await tool.execute(instance_id, _sample_arguments(tool.tool_schema.function.model_dump()),
                                            agent_data=agent_data)
            finally:
                await tool.release(instance_id)
            if not (isinstance(result, tuple) and len(result) == 3 and hasattr(result[0], "text")
                    and isinstance(result[1], (int, float))):
                raise CheckFailed("tools", f"{name}.execute returned {result!r}, not (ToolResponse, reward, metrics)")
            calls += 1
            if isinstance(tool, BcVerlTool) and await tool.finish_trajectory(f"check-{i}") is None:
                raise CheckFailed("tools", f"{name}: the trajectory's tool session was lost between calls")
    return calls


def _check_tools(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from verl.tools.tool_registry import load_all_tools
    from verl.utils.import_utils import resolve_config_path

    mt = cfg.actor_rollout_ref.rollout.multi_turn
    try:
        tool_list = load_all_tools(
            tool_config_path=resolve_config_path(mt.tool_config_path) if mt.tool_config_path else None,
            function_tool_path=resolve_config_path(mt.function_tool_path) if mt.function_tool_path else None)
    except Exception as exc:
        raise CheckFailed("tools", f"verl cannot load the tools: {type(exc).__name__}: {exc}") from None
    tools = {t.name: t for t in tool_list}
    for i, row in enumerate(rows):
        missing = set((row.get("extra_info") or {}).get("tools_kwargs") or {}) - set(tools)
        if missing:
            raise CheckFailed("tools", f"row {i} has tools_kwargs for {sorted(missing)}, not in the tool config")
    try:
        calls = asyncio.run(_exercise_tools(tools, rows))
    except CheckFailed:
        raise
    except Exception as exc:
        raise CheckFailed("tools", f"{type(exc).__name__}: {exc}") from None
    return f"{len(tools)} tool(s), {calls} create->execute->release call(s)"


def _check_agent_loops(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from hydra.utils import get_class
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.utils.import_utils import resolve_config_path

    names = set(_agent_loop_registry)
    path = cfg.actor_rollout_ref.rollout.agent.agent_loop_config_path
    if path:
        try:
            entries = OmegaConf.load(resolve_config_path(path))
            for entry in entries:
                get_class(entry._target_)
                names.add(entry.name)
        except Exception as exc:
            raise CheckFailed("agent_loops", f"{type(exc).__name__}: {exc}") from None
    wanted = {r.get("agent_name") for r in rows} | {cfg.actor_rollout_ref.rollout.agent.default_agent_loop}
    missing = sorted(str(w) for w in wanted - names if w)
    if missing:
        raise CheckFailed("agent_loops", f"agent_name(s) {missing} not registered (have {sorted(names)})")
    return f"registered: {', '.join(sorted(names))}"


def _image_count(path: str, key: str) -> int:
    """Images in the first rows of a parquet file's image column (0 without one)."""
    import pyarrow.parquet as pq

    if key not in pq.read_schema(path).names:
        return 0
    return sum(len(v or []) for v in pq.read_table(path, columns=[key]).slice(0, SAMPLE_ROWS).column(key).to_pylist())


def _placeholders_match(path: str, column: str, key: str) -> None:
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


def _processor_for(cfg: Any, paths: list[str], column: str = "prompt") -> Any:
    """An offline Qwen2-VL style processor when the files hold images (verl needs one for them), else None."""
    key = cfg.data.get("image_key", "images")
    for p in paths:
        if p:
            _placeholders_match(p, column, key)
    if not any(_image_count(p, key) for p in paths if p):
        return None
    from .tokenizer import build_offline_processor

    return build_offline_processor()


def _check_images(messages: list[dict[str, Any]], processor: Any, where: str) -> int:
    """Run verl's own vision path on a row's messages (qwen_vl_utils + the processor); the image tokens made."""
    from verl.utils.dataset.rl_dataset import RLHFDataset
    from verl.utils.tokenizer import build_multimodal_processor_inputs

    wanted = sum(1 for m in messages if isinstance(m.get("content"), list)
                 for p in m["content"] if isinstance(p, dict) and p.get("type") == "image")
    try:
        if _torchvision():
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


def _torchvision() -> bool:
    """Whether verl's vision utilities (qwen_vl_utils) can import: they need torchvision, which the `verl` extra
    does not bring on CPU (verl's GPU images have it)."""
    try:
        import qwen_vl_utils  # noqa: F401
    except Exception:
        return False
    return True


def _check_rl_dataset(cfg: Any, tokenizer: Any) -> tuple[list[dict[str, Any]], int]:
    import pyarrow.parquet as pq
    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import RLHFDataset

    files = [cfg.data.train_files, cfg.data.val_files]
    processor = _processor_for(cfg, files)
    if processor is not None:
        tokenizer = processor.tokenizer
    items, images = [], 0
    for path in files:
        columns = set(pq.read_schema(path).names)
        if not RL_COLUMNS <= columns:
            raise CheckFailed("dataset", f"{path}: missing column(s) {sorted(RL_COLUMNS - columns)}")
        data_config = OmegaConf.merge(cfg.data, {"filter_overlong_prompts_workers": 1})
        if processor is not None and not _torchvision():  # verl's length filter runs qwen_vl_utils on images
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
                images += _check_images(dataset[i]["raw_prompt"], processor, f"{path} row {i}")
        items.append(item)
    return items, images


def _check_sft_dataset(cfg: Any, tokenizer: Any) -> str:
    import pyarrow.parquet as pq
    from verl.utils.import_utils import load_extern_object

    paths = [p for p in (cfg.data.train_files, cfg.data.val_files) if p]
    processor = _processor_for(cfg, paths, cfg.data.get("messages_key", "messages"))
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
                    wanted = _image_count_row(path, i, cfg.data.get("image_key", "images"))
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


def _image_count_row(path: str, i: int, key: str) -> int:
    import pyarrow.parquet as pq

    return len(pq.read_table(path, columns=[key]).slice(i, 1).column(key).to_pylist()[0] or [])


def _reference_texts(data_source: str, identity: Any, prompt: list[dict[str, Any]],
                     interaction_kwargs: Any = None) -> list[str] | None:
    """The assistant texts of the bootcamp's reference policy, played in-process through bc-eval's rollout loop
    (every tool of the bootcamp offered, the interaction when the row has one), or None without a policy, for a
    seed registry bootcamp (not installed: reward_kwargs.reward_classes), or when its episode does not complete."""
    import asyncio

    from bc_common.bootcamp import assistant_texts
    from bc_common.builtin_model import reference_trajectory
    from bc_common.environment import Environments
    from bc_common.errors import RegistryError

    try:
        env = Environments().get(data_source)
    except RegistryError:
        return None
    if env.policy is None:
        return None
    tools = {name: {"create_kwargs": {"identity": identity}} for name in (env.tools.tools if env.tools else {})}
    task = {"data_source": data_source, "prompt": prompt, "reward_model": {"ground_truth": identity},
            "extra_info": {"tools_kwargs": tools, "interaction_kwargs": interaction_kwargs or {}}}
    trajectory = asyncio.run(reference_trajectory(task, env))
    return assistant_texts(trajectory["messages"]) if trajectory["status"] == "completed" else None


def _check_reward(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from verl.trainer.ppo.reward import get_custom_reward_fn

    from .parquet_rows import loads_json_field

    try:
        fn = get_custom_reward_fn(cfg)
    except Exception as exc:
        raise CheckFailed("reward", f"cannot load reward.custom_reward_function: {type(exc).__name__}: {exc}") from None
    if fn is None:
        raise CheckFailed("reward", "reward.custom_reward_function.path is not set")
    keys, solved = None, 0
    for i, row in enumerate(rows):
        gt = row["reward_model"]["ground_truth"]
        base = dict(row.get("extra_info") or {})
        ikwargs = loads_json_field((base.get("interaction_kwargs") or {}).get("bc_json", "{}"))
        texts = _reference_texts(row["data_source"], loads_json_field(gt), row["prompt"], ikwargs)
        reference = texts[-1] if texts else None
        cases = [("", {**base, "turn_scores": [], "tool_rewards": [], "num_turns": 2, "bc_final_text": "",
                       "bc_assistant_texts": []}),
                 ("no answer", {**base, "num_turns": 2})]
        if reference is not None:
            cases.append((reference, {**base, "turn_scores": [1.0], "tool_rewards": [0.0], "num_turns": 4,
                                      "bc_final_text": reference, "bc_assistant_texts": texts}))
        for solution, extra in cases:
            try:
                result = fn(data_source=row["data_source"], solution_str=solution, ground_truth=gt, extra_info=extra)
            except Exception as exc:
                raise CheckFailed("reward", f"row {i}: {type(exc).__name__}: {exc}") from None
            if not isinstance(result, dict) or "score" not in result:
                raise CheckFailed("reward", f"row {i}: expected a dict with 'score', got {result!r}")
            if keys is None:
                keys = set(result)
            elif set(result) != keys:
                raise CheckFailed("reward", f"row {i}: keys {sorted(result)} differ from {sorted(keys)}")
        if reference is not None:
            if result["acc"] < 1.0:
                raise CheckFailed("reward", f"row {i}: the reference solution scored {result['acc']}, not 1.0")
            solved += 1
    return f"keys {sorted(keys or [])}; reference solutions scored 1.0 on {solved}/{len(rows)} row(s)"


def _check_files(cfg: Any, run_dir: Path, mode: str) -> str:
    """Every file the composed config reads exists (a missing one is named here, not as a crash later on)."""
    from omegaconf import OmegaConf

    keys = ["data.train_files", "data.val_files"]
    if mode == "rl":
        keys += ["actor_rollout_ref.rollout.multi_turn.tool_config_path",
                 "actor_rollout_ref.rollout.agent.agent_loop_config_path"]
    outside = []
    count = 0
    for key in keys:
        value = OmegaConf.select(cfg, key)
        paths = list(value) if OmegaConf.is_list(value) else [value]
        for path in paths:
            if path is None or (key == "data.val_files" and path == ""):
                continue
            count += 1
            file = Path(str(path))
            if not file.is_file():
                raise CheckFailed("files", f"{key} = {path}: no such file")
            if not file.resolve().is_relative_to(run_dir.resolve()):
                outside.append(str(path))
    note = f"; reads {len(outside)} file(s) outside {run_dir} (copied or moved? first: {outside[0]})" if outside else ""
    return f"{count} data and config file(s) present{note}"


def check_run_dir(run_dir: Path, log: Callable[[str], None] = print) -> bool:
    """Run every check on `run_dir`; log one line per step. False (after naming the step) on the first failure."""
    _require_verl()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        with contextlib.redirect_stdout(sys.stderr):  # verl prints schemas and progress; stdout stays clean
            _run_checks(run_dir, log)
    except CheckFailed as exc:
        log(f"FAIL {exc.step}: {exc.message}")
        return False
    except Exception as exc:  # a bug in a check must still name where it happened
        log(f"FAIL internal: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        return False
    log(f"ok   {run_dir}: verl 0.9.1 accepts this run")
    return True


def _run_checks(run_dir: Path, log: Callable[[str], None]) -> None:
    from omegaconf import OmegaConf

    from .tokenizer import build_offline_tokenizer

    manifest_path = run_dir / MANIFEST
    if not manifest_path.exists() or not (run_dir / "config.yaml").exists():
        raise CheckFailed("files", f"{run_dir} lacks {MANIFEST} or config.yaml (not a bc-train run directory)")
    try:
        manifest = orjson.loads(manifest_path.read_bytes())
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")
    except ValueError as exc:
        raise CheckFailed("files", f"{manifest_path}: unreadable ({exc}); rewrite the run with bc-train -o") from None
    if not (run_dir / "run.sh").is_file():
        raise CheckFailed("files", f"{run_dir} lacks run.sh; rewrite the run with bc-train -o")
    mode, overrides = manifest.get("mode", "rl"), list(manifest.get("overrides") or [])
    raw = OmegaConf.to_container(OmegaConf.load(run_dir / "config.yaml"))
    _check_keys(raw, overrides, _base_config("ppo_trainer" if mode == "rl" else "sft_trainer_engine"))
    log(f"ok   keys: no stale or unknown keys ({len(overrides)} override(s))")
    cfg = _compose(run_dir, overrides)
    log("ok   compose: Hydra over pkg://verl.trainer.config")
    try:
        OmegaConf.resolve(cfg)
    except Exception as exc:
        raise CheckFailed("resolve", f"{type(exc).__name__}: {exc}") from None
    log("ok   resolve")
    log(f"ok   files: {_check_files(cfg, run_dir, mode)}")
    if mode == "rl":
        _validate_rl(cfg)
        log("ok   validate: validate_config, rollout and algorithm dataclasses")
        rows = _read_rows(Path(cfg.data.train_files))
        log(f"ok   tools: {_check_tools(cfg, rows)}")
        log(f"ok   agent_loops: {_check_agent_loops(cfg, rows)}")
    else:
        _validate_sft(cfg)
        log("ok   validate: engine, optim, checkpoint, profiler dataclasses")
    with tempfile.TemporaryDirectory(prefix="bc-train-tok-") as tmp:
        tokenizer = build_offline_tokenizer(tmp)
        if mode == "rl":
            items, images = _check_rl_dataset(cfg, tokenizer)
            path = "verl's vision path" if _torchvision() else "the dataset's images (no torchvision: verl's " \
                "qwen_vl_utils step and length filter skipped)"
            note = f"; {images} image(s) through {path} and an offline Qwen2-VL processor" if images else ""
            log(f"ok   dataset: RLHFDataset loads train and val ({len(items)} files), columns present{note}")
        else:
            log(f"ok   dataset: {_check_sft_dataset(cfg, tokenizer)}")
    if mode == "rl":
        log(f"ok   reward: {_check_reward(cfg, rows)}")
