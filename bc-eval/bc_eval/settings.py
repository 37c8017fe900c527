"""The run's settings, stored beside its output (`OUT.meta.json`, written atomically), so that `--resume` never
mixes runs: a resume whose settings differ is refused, naming them (`--force` mixes them anyway).

OUT itself stays a plain JSONL of trajectories for jq and bc-filter. Keys and headers are never stored.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import ConfigError
from bc_common.jsonl import atomic_write_bytes
from bc_common.redaction import redact_url
from bc_common.rollout import Limits

VERSION = 1
# what changes the trajectories a run writes; base_url is stored to inform, not compared (replicas of a server)
COMPARED = ("model", "samples", "limits", "verify_kwargs", "params", "tool_config", "interaction_config",
            "reward_calculator", "registry_file", "images")


def settings_path(output: str | Path) -> Path:
    return Path(f"{output}.meta.json")


def _path(value: str | None) -> str | None:
    return str(Path(value).resolve()) if value else None


def run_settings(config: Any, model: str) -> dict[str, Any]:
    """The settings of `config` (an EvalConfig) with the model it runs, as stored beside OUT."""
    return {"bc_eval_settings": VERSION, "model": model, "samples": config.samples,
            "limits": dataclasses.asdict(config.limits or Limits()), "verify_kwargs": config.verify_kwargs,
            "params": config.params, "tool_config": _path(config.tool_config),
            "interaction_config": _path(config.interaction_config), "reward_calculator": config.reward_calculator,
            "registry_file": _path(config.registry_file), "base_url": redact_url(config.base_url) or None,
            "server_profile": getattr(config, "server_profile", "auto"), "images": _images(config)}


def _images(config: Any) -> dict[str, Any] | None:
    """The image settings, None at the defaults (so outputs of runs before image flags existed still resume)."""
    limits, store = getattr(config, "image_limits", None), getattr(config, "store_images", True)
    if store and (limits is None or (limits.max_pixels is None and limits.min_edge is None)):
        return None
    return {"max_pixels": limits.max_pixels if limits else None, "min_edge": limits.min_edge if limits else None,
            "store": "inline" if store else "sha256"}


def stored_settings(output: str | Path) -> dict[str, Any] | None:
    """The settings stored beside `output`; None when there are none (a new file, or one from an older bc-eval)."""
    path = settings_path(output)
    if not path.is_file():
        return None
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: unreadable run settings ({exc}); remove it, or --force") from None
    if not isinstance(data, dict) or data.get("bc_eval_settings") != VERSION:
        raise ConfigError(f"{path}: not bc-eval run settings (version {VERSION}); remove it, or --force")
    return data


def differences(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """`key: stored then, current now` for every compared setting that differs."""
    out = []
    for key in COMPARED:
        before, now = stored.get(key), current.get(key)
        if _canonical(before) != _canonical(now):
            out.append(f"{key} {_show(before)} then, {_show(now)} now")
    return out


def check_resume(output: str | Path, current: dict[str, Any], force: bool) -> list[str]:
    """Refuse (ConfigError, exit 2) a resume of `output` under other settings unless `force`; returns the
    differences (to warn about when forced)."""
    if force:
        try:
            stored = stored_settings(output)
        except ConfigError:
            return ["the stored settings are unreadable"]
    else:
        stored = stored_settings(output)
    if stored is None:
        return []
    found = differences(stored, current)
    if found and not force:
        raise ConfigError(f"{output}: --resume under other settings than the run that wrote it: "
                          f"{'; '.join(found)}. Rerun with the same flags, write to another -o, or --force to mix "
                          "them in one file")
    return found


def write_settings(output: str | Path, settings: dict[str, Any]) -> None:
    """Store `settings` beside `output` (atomically); nothing for stdout or a non-file such as /dev/null."""
    out = Path(output)
    if str(output) == "-" or (out.exists() and not out.is_file()):
        return
    atomic_write_bytes(settings_path(output), orjson.dumps(settings, option=orjson.OPT_INDENT_2 |
                                                           orjson.OPT_SORT_KEYS) + b"\n")


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


def _show(value: Any) -> str:
    text = _canonical(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."
