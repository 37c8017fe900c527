"""`bc-train --check DIR`: verl itself composes, validates and loads everything in a run directory.

The steps live in this package, one module per area (config, files, tools, dataset, reward), and
`check_run_dir` runs them in order. Steps (each named on failure): files (manifest, config.yaml, run.sh), keys (stale or unknown keys in
config.yaml and --set overrides), compose (Hydra over verl's packaged configs), resolve, files (every data and
config file the config reads exists; a note when they lie outside the directory), validate (verl's validate_config; dataclasses of rollout and
algorithm, or of the SFT engine/optim/checkpoint), tools (verl's tool registry; create -> execute -> release
on sample rows), agent_loops (every `_target_` imports; every row's agent_name is registered), dataset
(verl's RLHFDataset / our SFT dataset with an offline tokenizer; columns), reward (verl's custom reward
loader, called on sample rows; the same keys every time; a reference solution scores 1.0). CPU, no network.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

import orjson

from ..verl_config import MANIFEST, anchor_overrides
from .config import base_config, check_keys, compose, validate_rl, validate_sft
from .dataset import check_rl_dataset, check_sft_dataset, torchvision
from .failure import CheckFailed, VerlMissing, require_verl
from .files import check_files, read_rows
from .reward import check_reward
from .tools import check_agent_loops, check_tools

__all__ = ["CheckFailed", "VerlMissing", "check_run_dir", "compose"]


def check_run_dir(run_dir: Path, log: Callable[[str], None] = print) -> bool:
    """Run every check on `run_dir`; log one line per step. False (after naming the step) on the first failure."""
    require_verl()
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

    from ..tokenizer import build_offline_tokenizer

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
    overrides = [*anchor_overrides(raw, mode, str(run_dir.resolve())), *overrides]  # as run.sh anchors them
    check_keys(raw, overrides, base_config("ppo_trainer" if mode == "rl" else "sft_trainer_engine"))
    log(f"ok   keys: no stale or unknown keys ({len(overrides)} override(s))")
    cfg = compose(run_dir, overrides)
    log("ok   compose: Hydra over pkg://verl.trainer.config")
    try:
        OmegaConf.resolve(cfg)
    except Exception as exc:
        raise CheckFailed("resolve", f"{type(exc).__name__}: {exc}") from None
    log("ok   resolve")
    log(f"ok   files: {check_files(cfg, run_dir, mode)}")
    if mode == "rl":
        validate_rl(cfg)
        log("ok   validate: validate_config, rollout and algorithm dataclasses")
        rows = read_rows(Path(cfg.data.train_files))
        log(f"ok   tools: {check_tools(cfg, rows)}")
        log(f"ok   agent_loops: {check_agent_loops(cfg, rows)}")
    else:
        validate_sft(cfg)
        log("ok   validate: engine, optim, checkpoint, profiler dataclasses")
    with tempfile.TemporaryDirectory(prefix="bc-train-tok-") as tmp:
        tokenizer = build_offline_tokenizer(tmp)
        if mode == "rl":
            items, images = check_rl_dataset(cfg, tokenizer)
            path = "verl's vision path" if torchvision() else "the dataset's images (no torchvision: verl's " \
                "qwen_vl_utils step and length filter skipped)"
            note = f"; {images} image(s) through {path} and an offline Qwen2-VL processor" if images else ""
            log(f"ok   dataset: RLHFDataset loads train and val ({len(items)} files), columns present{note}")
        else:
            log(f"ok   dataset: {check_sft_dataset(cfg, tokenizer)}")
    if mode == "rl":
        log(f"ok   reward: {check_reward(cfg, rows)}")
