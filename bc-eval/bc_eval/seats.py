"""bc-eval's seats: the opponent of a match (`--opponent-model`, `--opponent-base-url`, `--opponent-api-key-env`)
and the checks a seated run makes before it plays (`bc_common.match` plays it).

    bc-gen tictactoe -n 20 | bc-eval --model builtin:reference --opponent-model builtin:random --samples 2
"""
from __future__ import annotations

import dataclasses
from typing import Any

from bc_common.builtin_model import BuiltinModel, baseline_name, is_builtin
from bc_common.environment import Environment
from bc_common.errors import ConfigError, RegistryError
from bc_common.jsonl import Record
from bc_common.match import Player, run_match


def check_opponent(config: Any) -> None:
    """Refuse opponent flags that cannot work: a server flag without --opponent-model, a named model without a
    server to ask, an opponent with a tool transport (seated games offer no tools)."""
    if not config.opponent_model:
        if config.opponent_base_url or config.opponent_api_key_env:
            raise ConfigError("--opponent-base-url and --opponent-api-key-env need --opponent-model")
        return
    if not is_builtin(config.opponent_model) and not (config.opponent_base_url or config.base_url):
        raise ConfigError(f"--opponent-model {config.opponent_model}: no server to ask; give --opponent-base-url "
                          "URL (or --base-url, shared with --model), or a builtin: opponent")
    if config.tool_transport != "local":
        raise ConfigError("--opponent-model: a seated game offers no tools, so --tool-transport mcp does not apply")


def make_opponent(config: Any, make_model: Any) -> Player:
    """The opponent as a `Player`: a built-in policy of the seat, or a client of its server. The opponent gets
    the --model's key only when it talks to the same server (a key is never sent to another server)."""
    name = config.opponent_model
    if is_builtin(name):
        return Player(BuiltinModel(name, {}), name)
    own_server = config.opponent_base_url and config.opponent_base_url != config.base_url
    key = config.opponent_api_key if config.opponent_api_key_env else (None if own_server else config.api_key)
    seat_config = dataclasses.replace(config, model=name, base_url=config.opponent_base_url or config.base_url,
                                      api_key=key, opponent_model=None, opponent_base_url=None,
                                      opponent_api_key_env=None, opponent_api_key=None)
    return Player(make_model(seat_config, name), name)


def check_seated(env: Environment, record: Record, models: list[str]) -> None:
    """The task's bootcamp must declare seats, and every built-in model must have a policy for them; names
    FILE:LINE."""
    where = f"{record.source}:{record.line}"
    game = env.seats
    if game is None:
        raise RegistryError(f"{where}: {env.data_source} declares no seats: --opponent-model plays only "
                            "multi-player bootcamps (bc-gen --describe NAME says whether one has seats)")
    for name in models:
        if not is_builtin(name):
            continue
        kind = name.split(":", 1)[1]
        wanted = baseline_name(kind)
        if wanted is None and game.policy is None:
            raise RegistryError(f"{where}: {env.data_source}'s seats have no reference policy for {name}")
        if wanted is not None and wanted not in game.baselines:
            declared = ", ".join(sorted(game.baselines)) or "none"
            raise RegistryError(f"{where}: {env.data_source}'s seats declare no baseline {wanted!r} for {name} "
                                f"(declared: {declared})")


async def play(task: dict[str, Any], sample: int, model: Player, opponent: Player, env: Environment,
               config: Any) -> dict[str, Any]:
    """One match, the evaluated model seated by the sample (seat 0 in even samples)."""
    return await run_match(task, sample, model, opponent, env, limits=config.limits)
