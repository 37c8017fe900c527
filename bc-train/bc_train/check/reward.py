"""Step reward: verl's custom reward loader, called on sample rows; the same keys every time; a reference solution
scores 1.0."""
from __future__ import annotations

import asyncio
from typing import Any

from .failure import CheckFailed


def reference_texts(data_source: str, identity: Any, prompt: list[dict[str, Any]],
                     interaction_kwargs: Any = None) -> list[str] | None:
    """The assistant texts of the bootcamp's reference policy, played in-process through bc-eval's rollout loop
    (every tool of the bootcamp offered, the interaction when the row has one), or None without a policy, for a
    seed registry bootcamp (not installed: reward_kwargs.reward_classes), or when its episode does not complete."""

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


def check_reward(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from verl.trainer.ppo.reward import get_custom_reward_fn

    from ..parquet_rows import loads_json_field

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
        texts = reference_texts(row["data_source"], loads_json_field(gt), row["prompt"], ikwargs)
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
