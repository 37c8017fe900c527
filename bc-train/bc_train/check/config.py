"""Steps keys, compose, resolve and validate: the run's config as verl's Hydra composes and checks it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .failure import CheckFailed

# Keys verl dropped (or never reads) that still compose: they would silently do nothing.
STALE_KEYS = {
    "actor_rollout_ref.rollout.multi_turn.interaction_config_path":
        "verl 0.8 removed interactions; bc_agent (agent_loops.yaml) runs the bootcamp's interaction",
    "custom_reward_function.path": "legacy top-level key, ignored by main_ppo; use reward.custom_reward_function",
    "custom_reward_function.name": "legacy top-level key, ignored by main_ppo; use reward.custom_reward_function",
}


OUR_EXTRA_KEYS = {"reward.custom_reward_function.reward_kwargs"}


def leaf_paths(node: Any, prefix: str = "") -> list[str]:
    if isinstance(node, dict) and node:
        out = []
        for key, value in node.items():
            out += leaf_paths(value, f"{prefix}.{key}" if prefix else str(key))
        return out
    return [prefix]


def override_key(override: str) -> tuple[str, bool]:
    key = override.split("=", 1)[0].strip()
    added = key.startswith("+")
    return key.lstrip("+~"), added


def check_keys(raw: dict[str, Any], overrides: list[str], base: Any) -> None:
    """Refuse stale keys, and keys in config.yaml or `+key=` overrides that verl's base config lacks."""
    from omegaconf import OmegaConf

    paths = leaf_paths({k: v for k, v in raw.items() if k not in ("hydra", "defaults")})
    for override in overrides:
        key, _ = override_key(override)
        paths.append(key)
    for path in paths:
        for stale, why in STALE_KEYS.items():
            if path == stale or path.startswith(stale + "."):
                if stale.startswith("custom_reward_function") and is_null_legacy(raw, overrides, stale):
                    continue
                raise CheckFailed("keys", f"stale key {path!r}: {why}")
        if any(path == k or path.startswith(k + ".") for k in OUR_EXTRA_KEYS):
            continue
        parent, _, leaf = path.rpartition(".")
        node = OmegaConf.select(base, parent) if parent else base
        if node is None or not OmegaConf.is_dict(node):
            continue  # inside a free-form value (e.g. a list or an engine_kwargs mapping)
        if leaf not in set(node.keys()) and not free_form(node):
            import difflib

            close = difflib.get_close_matches(leaf, [str(k) for k in node.keys()], n=1)
            hint = f" (did you mean {parent + '.' if parent else ''}{close[0]}?)" if close else ""
            raise CheckFailed("keys", f"unknown key {path!r}: verl 0.9.1 has no such setting{hint}")


def is_null_legacy(raw: dict[str, Any], overrides: list[str], key: str) -> bool:
    for override in overrides:
        k, _ = override_key(override)
        if k == key:
            return override.split("=", 1)[1].strip() in ("null", "None", "")
    node: Any = raw
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node is None


def free_form(node: Any) -> bool:
    return len(node) == 0  # an empty mapping in verl's defaults (e.g. engine_kwargs.vllm) takes any key


def base_config(base_name: str) -> Any:
    """verl's own packaged config (ppo_trainer or sft_trainer_engine), to tell known keys from unknown ones."""
    from hydra import compose, initialize_config_module
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_module(config_module="verl.trainer.config", version_base=None):
            return compose(config_name=base_name)
    finally:
        GlobalHydra.instance().clear()


def compose(run_dir: Path, overrides: list[str]) -> Any:
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


def validate_rl(cfg: Any) -> None:
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


def validate_sft(cfg: Any) -> None:
    from verl.utils.config import omega_conf_to_dataclass

    try:
        for section in ("engine", "optim", "checkpoint", "profiler"):
            omega_conf_to_dataclass(cfg[section])
    except Exception as exc:
        raise CheckFailed("validate", f"{type(exc).__name__}: {exc}") from None
