"""What is checked before a task runs: which model, the task's bootcamp, verifier kwargs, tool servers, identity.

    model = await choose_model(config)          # the named one, or the only one the server lists
    checks = TaskChecks(config, envs, warn)
    env = await checks.environment(record)      # resolved and checked once per data_source
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bc_common.builtin_model import KINDS, BuiltinModel, is_builtin
from bc_common.environment import Environment, Environments, identity_of
from bc_common.errors import ConfigError, InputError, RegistryError, ToolError
from bc_common.identity import validate_identity
from bc_common.jsonl import Record
from bc_common.redaction import redact_url
from bc_common.rollout import offered_tools
from bc_common.verify_kwargs import check_verify_kwargs

from .client import ChatClient, ModelError

BUILTINS = ", ".join(f"--model builtin:{k}" for k in KINDS)


async def choose_model(config: Any) -> str:
    """The model this run uses: the one named (a builtin only ever by name), else the single model a server at
    `base_url` lists. ConfigError (exit 2) when there is no URL, or the server lists none or several."""
    if config.model:
        return config.model
    if not config.base_url:
        raise ConfigError("no model: give --model NAME with --base-url URL (an OpenAI-compatible server; the "
                          f"server's only model is used when --model is left out), or {BUILTINS} "
                          "(the bootcamps' reference policies, no network)")
    client = ChatClient(config.base_url, "", api_key=config.api_key, headers=config.headers,
                        timeout=min(config.timeout, 30.0), concurrency=1)
    shown = redact_url(config.base_url)
    try:
        models = await client.list_models()
    except ModelError as exc:
        raise ConfigError(f"no --model given and {shown}/models cannot tell which to use ({exc}); "
                          "give --model NAME") from None
    finally:
        await client.aclose()
    if len(models) != 1:
        listed = ", ".join(models[:20]) + (f", ... ({len(models)} in all)" if len(models) > 20 else "")
        raise ConfigError(f"no --model given and {shown} lists {len(models) or 'no'} models"
                          f"{': ' + listed if models else ''}; choose one with --model NAME")
    return models[0]


class TaskChecks:
    """Resolves each task's environment and checks it once per data_source (verifier kwargs, tool servers,
    the reference policy a built-in model needs); checks every task's identity against its verifier."""

    def __init__(self, config: Any, envs: Environments, model: str, warn: Callable[[str], None]):
        self.config = config
        self.envs = envs
        # a seated run's built-in models play the seats' policies (bc_eval.seats.check_seated checks those)
        self.builtin = BuiltinModel(model) if is_builtin(model) and not getattr(config, "opponent_model", None) \
            else None
        self.warn = warn
        self._checked: set[str] = set()
        self._servers: dict[str, str | None] = {}  # tool server URL -> failure (None: fine)
        self._warned: set[tuple[str, str]] = set()

    async def environment(self, record: Record) -> Environment:
        """The task's environment; a bootcamp, config, kwarg or tool server that cannot serve it stops the run,
        naming FILE:LINE."""
        where = f"{record.source}:{record.line}"
        try:
            env = self.envs.get(record.data["data_source"])
            offered_tools(record.data, env)
        except InputError as exc:
            raise InputError(exc.reason, source=record.source, line=record.line) from None
        except (ConfigError, RegistryError) as exc:
            raise type(exc)(f"{where}: {exc}") from None
        if env.data_source not in self._checked:
            why = self.builtin.policy_available(env) if self.builtin is not None else None
            if why:
                raise RegistryError(f"{where}: {why}")
            try:
                check_verify_kwargs(env.reward, self.config.verify_kwargs)
            except ConfigError as exc:
                raise ConfigError(f"{where}: {env.data_source}: {exc}") from None
            await self._check_tool_servers(env, where)
            self._checked.add(env.data_source)
        self._warn_substitution(env, record)
        return env

    def identity_ok(self, record: Record, env: Environment) -> None:
        """Raise InputError naming FILE:LINE and the field when the task's ground truth does not fit its verifier."""
        validate_identity(env.reward, identity_of(record.data), record.source, record.line)

    async def _check_tool_servers(self, env: Environment, where: str) -> None:
        if env.tools is None:
            return
        for name, tool in env.tools.tools.items():
            check = getattr(tool, "check", None)
            url = getattr(tool, "server_url", None)
            if check is None or url is None:
                continue
            key = f"{url}/{name}"
            if key not in self._servers:
                try:
                    await check()
                    self._servers[key] = None
                except ToolError as exc:
                    self._servers[key] = f"{exc.kind}: {exc.message}"
            if self._servers[key] is not None:
                raise ConfigError(f"{where}: {env.data_source}: tool {name!r}: {self._servers[key]}; "
                                  "no trajectory was run")

    async def tool_servers(self, env: Environment) -> list[str]:
        """`URL/tool` (credentials redacted) of every remote tool of `env`, all checked (for --dry-run); raises
        like `environment`."""
        await self._check_tool_servers(env, env.data_source)
        tools = env.tools.tools.items() if env.tools is not None else []
        return [f"{redact_url(tool.server_url)}/{name}" for name, tool in tools
                if getattr(tool, "check", None) is not None and getattr(tool, "server_url", None)]

    def _warn_substitution(self, env: Environment, record: Record) -> None:
        kwargs = (record.data.get("extra_info") or {}).get("interaction_kwargs")
        name = kwargs.get("name") if isinstance(kwargs, dict) else None
        if not isinstance(name, str):
            return
        used = env.substitutes(name)
        if used is not None and (env.data_source, name) not in self._warned:
            self._warned.add((env.data_source, name))
            self.warn(f"{record.source}:{record.line}: {env.data_source} has no interaction {name!r}; using its "
                      f"only one, {used!r} (and so for every row that names {name!r})")
