"""The run's settings, stored beside its output (`OUT.meta.json`, written atomically), so that `--resume` never
mixes runs: a resume whose settings differ is refused, naming them (`--force` mixes them anyway).

OUT itself stays a plain JSONL of trajectories for jq and bc-filter. Keys and headers are never stored.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path
from typing import Any

import orjson

from bc_common.builtin_model import is_builtin
from bc_common.errors import ConfigError
from bc_common.jsonl import atomic_write_bytes
from bc_common.readers import read_records
from bc_common.records import task_id
from bc_common.redaction import redact_url
from bc_common.rollout import Limits

VERSION = 1
# what changes the trajectories a run writes: the server and the task file too (a replica of the server, or the
# same tasks under another path, is a --force away)
COMPARED = ("model", "samples", "limits", "verify_kwargs", "params", "tool_config", "interaction_config",
            "reward_calculator", "registry_file", "images", "base_url", "tasks", "record_tokens", "judge",
            "opponent", "seed_compat")
# compared only where the stored settings have them (older runs lack them)
SINCE = {"tasks", "record_tokens", "judge", "opponent", "seed_compat"}


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
            "registry_file": _path(config.registry_file), "base_url": _server(config.base_url, model),
            "server_profile": getattr(config, "server_profile", "auto"), "images": _images(config),
            "tasks": task_files(config.tasks), "record_tokens": bool(getattr(config, "record_tokens", False)),
            "judge": _judge(config), "opponent": _opponent(config),
            "seed_compat": bool(getattr(config, "seed_compat", False))}


def _opponent(config: Any) -> dict[str, Any] | None:
    """The opponent of a seated run (its model and server, credentials redacted); None for a run without one."""
    name = getattr(config, "opponent_model", None)
    if not name:
        return None
    return {"model": name, "base_url": _server(config.opponent_base_url or config.base_url, name)}


def _judge(config: Any) -> dict[str, Any] | None:
    """The judge that grades rubric bootcamps (its model and server, credentials redacted); None without one."""
    model = getattr(config, "judge_model", None)
    if not model:
        return None
    return {"model": model, "base_url": redact_url(str(config.judge_base_url).rstrip("/")) or None}


def _server(base_url: str | None, model: str) -> str | None:
    """The server a run talks to, as stored (credentials redacted); None for a built-in policy (no server)."""
    if not base_url or is_builtin(model):
        return None
    return redact_url(base_url.rstrip("/")) or None


def task_files(paths: list[str]) -> dict[str, Any]:
    """The task files' identity: their paths and a fingerprint of the task ids in order (so another file, or the
    same file changed, is recognised). stdin and pipes have no fingerprint (they cannot be read twice)."""
    names = [str(p) for p in paths] or ["-"]
    digest = hashlib.blake2b(digest_size=12)
    count = 0
    for name in names:
        if name == "-" or not os.path.isfile(name):
            return {"paths": [_shown(n) for n in names], "fingerprint": None, "count": None}
    for rec in read_records(names, skip_invalid=True):  # bad rows are the run's to report, not this pass's
        if isinstance(rec.data, dict):
            digest.update(task_id(rec.data).encode() + b"\n")
            count += 1
    return {"paths": [_shown(n) for n in names], "fingerprint": digest.hexdigest(), "count": count}


def _shown(name: str) -> str:
    return "<stdin>" if name == "-" else str(Path(name).resolve())


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
        if key in SINCE and key not in stored:
            continue
        before, now = stored.get(key), current.get(key)
        if key == "base_url" and is_builtin(str(current.get("model") or "")):
            continue  # a built-in policy talks to no server
        if key == "tasks":
            if not _same_tasks(before, now):
                out.append(f"tasks {_tasks_shown(before)} then, {_tasks_shown(now)} now")
            continue
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


def _same_tasks(before: Any, now: Any) -> bool:
    """Same task ids in the same order (a moved or renamed file is the same tasks); unknowable from stdin."""
    if not isinstance(before, dict) or not isinstance(now, dict):
        return before == now
    if before.get("fingerprint") is None or now.get("fingerprint") is None:
        return True
    return before["fingerprint"] == now["fingerprint"]


def _tasks_shown(value: Any) -> str:
    if not isinstance(value, dict):
        return str(value)
    return f"{', '.join(value.get('paths') or [])} ({value.get('count')} task ids, fingerprint {value.get('fingerprint')})"


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


def _show(value: Any) -> str:
    text = _canonical(value).decode()
    return text if len(text) <= 80 else text[:77] + "..."
