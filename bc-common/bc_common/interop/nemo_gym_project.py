"""NeMo Gym's side of a project for our bootcamps: the dataset rows and the resources server's folder. Needs no
NeMo Gym (it runs in the project's own virtualenv too); the server itself is `bc_common.interop.nemo_gym_env`.

    python -m bc_common.interop.nemo_gym_project init gym-project --link-venv   # resources_servers/bootcamp/...
    python -m bc_common.interop.nemo_gym_project export tasks.jsonl -o gym-project/data/tasks.jsonl
    python -m bc_common.interop.nemo_gym_project export tasks.jsonl --agent bootcamp_gymnasium_agent

A dataset row holds NeMo Gym's `responses_create_params` (the prompt as input messages, the task's tools as
function tools), `agent_ref` (the agent that plays it) and `task`, the bc-gen row verbatim (docs/interop-nemo-gym.md).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import orjson

from ..environment import Environment, Environments
from ..errors import BcError, InputError
from ..extras import source_checkout
from ..records import check_task
from ..rollout import offered_tools, prompt_messages


def data_source(name: str) -> str:
    """A bootcamp's rows' data_source from its name (`knapsack` -> `bootcamp/knapsack`)."""
    return name if name.startswith("bootcamp/") else f"bootcamp/{name}"


def gym_row(task: dict[str, Any], env: Environment, agent: str) -> dict[str, Any]:
    """A bc-gen row as a NeMo Gym dataset row: the prompt as input messages, the offered tools as function tools
    (strict off: our tools check their own arguments), the agent to play it, and the row itself as `task`."""
    check_task(task)
    names, _ = offered_tools(task, env)
    tools = [{"type": "function", "name": s["function"]["name"], "description": s["function"].get("description", ""),
              "parameters": s["function"].get("parameters") or {"type": "object", "properties": {}}, "strict": False}
             for s in (env.tools.schemas(names) if env.tools is not None and names else [])]
    params: dict[str, Any] = {"input": [_input_message(m) for m in prompt_messages(task)]}
    if tools:
        params["tools"] = tools
    return {"responses_create_params": params, "agent_ref": {"type": "responses_api_agents", "name": agent},
            "task": task}


def _input_message(message: dict[str, Any]) -> dict[str, Any]:
    role, content = message.get("role"), message.get("content")
    if role not in ("user", "system", "developer", "assistant") or message.get("tool_calls"):
        raise InputError(f"a prompt message with role {role!r} has no NeMo Gym input form", field="prompt")
    if isinstance(content, list):
        parts = []
        for part in content:
            if part.get("type") == "text":
                parts.append({"type": "input_text", "text": part.get("text", "")})
            elif part.get("type") == "image_url":
                url = part.get("image_url")
                parts.append({"type": "input_image", "detail": "auto",
                              "image_url": url.get("url") if isinstance(url, dict) else url})
            else:
                raise InputError(f"a prompt content part of type {part.get('type')!r} has no NeMo Gym input form",
                                 field="prompt")
        content = parts
    return {"role": role, "content": content if content is not None else "", "type": "message"}


SERVER_NAME = "bootcamp"
AGENTS = {"simple_agent": f"{SERVER_NAME}_simple_agent", "gymnasium_agent": f"{SERVER_NAME}_gymnasium_agent"}

APP = '''"""NeMo Gym starts this file (`python app.py`) with its config in the environment."""
from bc_common.interop.nemo_gym_env import BootcampResourcesServer

if __name__ == "__main__":
    BootcampResourcesServer.run_webserver()
'''


def config_yaml(bootcamp: str = "", max_steps: int = 1000) -> str:
    """NeMo Gym's config for the resources server and the two agents that play it (model: `policy_model`)."""
    return f"""# bootcamp-harness bootcamps in NeMo Gym (docs/interop-nemo-gym.md)
{SERVER_NAME}_resources_server:
  resources_servers:
    {SERVER_NAME}:
      entrypoint: app.py
      domain: agent
      verified: false
      description: bootcamp-harness bootcamps (bc-gen rows) with their tools and verifiers
      bootcamp: "{bootcamp}"   # what a row naming neither task nor bootcamp plays
      bootcamps: []   # the bootcamps served; empty: any
      seed: 0
      split: train
{AGENTS["simple_agent"]}:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server:
        type: resources_servers
        name: {SERVER_NAME}_resources_server
      model_server:
        type: responses_api_models
        name: policy_model
{AGENTS["gymnasium_agent"]}:
  responses_api_agents:
    gymnasium_agent:
      entrypoint: app.py
      max_steps: {max_steps}   # bc-eval's turn budgets end an episode first
      resources_server:
        type: resources_servers
        name: {SERVER_NAME}_resources_server
      model_server:
        type: responses_api_models
        name: policy_model
"""


def requirement() -> str:
    """What NeMo Gym installs in the server's own virtualenv: this clone, or the package from PyPI."""
    root = source_checkout()
    return f"-e {root}[nemo-gym]" if root is not None else "bootcamp-harness[nemo-gym]"


LINKED = ("resources_servers/" + SERVER_NAME, "responses_api_agents/simple_agent",
          "responses_api_agents/gymnasium_agent", "responses_api_models/vllm_model")


def init_project(folder: Path, *, bootcamp: str = "", link_venv: bool = False) -> Path:
    """NeMo Gym's layout for our server under `folder`: resources_servers/bootcamp/{app.py, requirements.txt,
    configs/bootcamp.yaml}. `link_venv`: each server's `.venv` (where NeMo Gym looks for it) links to this
    interpreter's virtualenv, so `gym env start +skip_venv_if_present=true` builds none. The config's path."""
    if bootcamp:
        Environments().get(data_source(bootcamp))
    server = folder / "resources_servers" / SERVER_NAME
    (server / "configs").mkdir(parents=True, exist_ok=True)
    (server / "app.py").write_text(APP)
    (server / "requirements.txt").write_text(requirement() + "\n")
    config = server / "configs" / f"{SERVER_NAME}.yaml"
    config.write_text(config_yaml(bootcamp))
    if link_venv:
        for path in LINKED:
            link = folder / path / ".venv"
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(Path(sys.prefix), target_is_directory=True)
    return config


def export(paths: list[str], out: Any, agent: str) -> int:
    """Write a NeMo Gym dataset row for every task row of `paths` (bc-gen's JSONL or parquet); the count."""
    from ..readers import read_records

    environments, count = Environments(), 0
    for record in read_records(paths):
        try:
            check_task(record.data)
            try:
                env = environments.get(record.data["data_source"])
            except BcError as exc:
                raise InputError(str(exc), field="data_source") from None
            row = gym_row(record.data, env, agent)
        except InputError as exc:
            raise exc.located(record.source, record.line) from None
        out.write(orjson.dumps(row) + b"\n")
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bc_common.interop.nemo_gym_project", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    init = commands.add_parser("init", help="write the resources server's folder and NeMo Gym config")
    init.add_argument("folder", help="the NeMo Gym project folder (where `gym env start` runs)")
    init.add_argument("--bootcamp", default="", help="what a row naming no task or bootcamp plays")
    init.add_argument("--link-venv", action="store_true",
                      help="link each server's .venv to this virtualenv (then: gym env start +skip_venv_if_present=true)")
    out = commands.add_parser("export", help="bc-gen rows as NeMo Gym dataset rows")
    out.add_argument("tasks", nargs="+", help="bc-gen's JSONL or parquet (- for stdin)")
    out.add_argument("-o", "--output", default="-")
    out.add_argument("--agent", default=AGENTS["simple_agent"],
                     help=f"the agent each row names (agent_ref): {' or '.join(AGENTS.values())}")
    args = parser.parse_args(argv)
    try:
        if args.command == "init":
            print(init_project(Path(args.folder), bootcamp=args.bootcamp, link_venv=args.link_venv))
            return 0
        if args.output == "-":
            count = export(args.tasks, sys.stdout.buffer, args.agent)
        else:
            Path(args.output).parent.mkdir(parents=True, exist_ok=True)
            with open(args.output, "wb") as handle:
                count = export(args.tasks, handle, args.agent)
        print(f"{count} rows for {args.agent}", file=sys.stderr)
        return 0
    except BcError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

