"""What a run directory says to verl: config.yaml (Hydra), run.sh, README.md, and the tool/agent-loop YAMLs.

No verl import here: emitting works without the `verl` extra; `bc-train --check` proves verl accepts it.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bc_common.tool_config import ToolSpec

AGENT_LOOP_TARGET = "bc_train.agent_loop.BcAgentLoop"
TOOL_CLASS = "bc_train.verl_tool.BcVerlTool"
SFT_DATASET = ("pkg://bc_train.sft_dataset", "BcMultiTurnSFTDataset")
REWARD_FN = ("pkg://bc_train.reward", "compute_score")
MANIFEST = "bc_train.json"
# every file a run may hold that bc-train writes: a manifest without a `files` list (bc-train before it listed
# them) owns these, and a new run never writes over one of them that the manifest does not list
RUN_FILES = ("train.parquet", "val.parquet", "tool_config.yaml", "agent_loops.yaml", "config.yaml", "run.sh",
             "README.md", MANIFEST)
CONFIG_HEADER = ("# verl 0.9.1 {what} config written by bc-train. Check: bc-train --check <this dir>\n"
                 "# Paths are relative to this folder: run.sh (and --check) pass them as absolute Hydra overrides,\n"
                 "# so the folder may be moved or copied to another machine.")


@dataclass
class TrainOptions:
    """Everything `bc-train` flags choose. Batch sizes scale with the number of GPUs when not given."""

    model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    rollout: str = "sglang"
    n: int = 8
    batch_size: int | None = None
    max_assistant_turns: int = 6
    gpus_per_node: int = 1
    nodes: int = 1
    overrides: list[str] = field(default_factory=list)
    max_prompt_length: int = 1024
    max_response_length: int = 2048
    experiment: str = "bootcamp"

    @property
    def gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    def train_batch_size(self, sft: bool = False) -> int:
        return self.batch_size or (64 if sft else 32) * self.gpus


# Every path config.yaml names is relative to the run directory, so the directory can be copied or moved (a
# laptop to a GPU node); run.sh and `bc-train --check` anchor them at the directory with Hydra overrides.
RUN_DIR_PATHS = {
    "rl": ("data.train_files", "data.val_files", "actor_rollout_ref.rollout.multi_turn.tool_config_path",
           "actor_rollout_ref.rollout.agent.agent_loop_config_path", "trainer.default_local_dir"),
    "sft": ("data.train_files", "data.val_files", "trainer.default_local_dir"),
}
RUN_DIR_VAR = "${RUN_DIR}"  # run.sh's own folder, computed when it starts


def anchor_overrides(config: dict[str, Any], mode: str, run_dir: str) -> list[str]:
    """Hydra overrides that make config.yaml's relative paths absolute under `run_dir` (run.sh passes
    RUN_DIR_VAR, --check the folder it checks): `data.train_files='/runs/a/train.parquet'`."""
    out = []
    for key in RUN_DIR_PATHS[mode]:
        node: Any = config
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, str) and node and not node.startswith("/"):
            out.append(f"{key}='{run_dir}/{node}'")  # quoted for Hydra: a comma or space in a path is no list
    return out


def verl_tool_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as verl's pydantic model keeps it: property type/description/enum only (the full schema
    stays in the adapter's config and is what arguments are validated against)."""
    fn = schema["function"]
    params = fn.get("parameters") or {"type": "object", "properties": {}}
    props = {}
    for name, prop in (params.get("properties") or {}).items():
        kept = {"type": prop.get("type", "string")}
        for key in ("description", "enum"):
            if key in prop:
                kept[key] = prop[key]
        props[name] = kept
    return {"type": "function",
            "function": {"name": fn["name"], "description": fn.get("description") or fn["name"],
                         "parameters": {"type": "object", "properties": props,
                                        "required": list(params.get("required") or [])}}}


def tool_config_doc(specs: list[ToolSpec]) -> dict[str, Any]:
    """verl's tool config: one adapter entry per bootcamp tool."""
    return {"tools": [{
        "class_name": TOOL_CLASS,
        "config": {"type": "native", "bc_class_name": spec.class_name,
                   "bc_config": {k: v for k, v in spec.config.items() if k != "type"},
                   "bc_tool_schema": spec.tool_schema},
        "tool_schema": verl_tool_schema(spec.tool_schema),
    } for spec in specs]}


def agent_loops_doc(interaction_paths: dict[str, str] | None = None) -> list[dict[str, Any]]:
    return [{"name": "bc_agent", "_target_": AGENT_LOOP_TARGET,
             "interaction_config_paths": dict(interaction_paths or {})}]


def rl_config(opts: TrainOptions, reward_classes: dict[str, str] | None = None) -> dict[str, Any]:
    """The Hydra primary config for `verl.trainer.main_ppo`: GRPO, multi-turn tools, our loop and reward.
    `reward_classes` ({data_source: dotted verifier class}) names the verifiers of bootcamps that are not
    installed (seed registry lines)."""
    batch = opts.train_batch_size()
    return {
        "hydra": {"searchpath": ["pkg://verl.trainer.config"]},
        "defaults": ["ppo_trainer", "_self_"],
        "algorithm": {"adv_estimator": "grpo", "use_kl_in_reward": False},
        "data": {
            "train_files": "train.parquet",
            "val_files": "val.parquet",
            "prompt_key": "prompt",
            "max_prompt_length": opts.max_prompt_length,
            "max_response_length": opts.max_response_length,
            "train_batch_size": batch,
            "filter_overlong_prompts": True,
            "truncation": "error",
            "return_raw_chat": True,
            "shuffle": True,
        },
        "actor_rollout_ref": {
            "hybrid_engine": True,
            "model": {"path": opts.model, "use_remove_padding": True, "enable_gradient_checkpointing": True},
            "actor": {
                "optim": {"lr": 1e-6},
                "ppo_mini_batch_size": max(1, batch // 4),
                "ppo_micro_batch_size_per_gpu": 8,
                "use_dynamic_bsz": True,
                "ppo_max_token_len_per_gpu": 4 * (opts.max_prompt_length + opts.max_response_length),
                "use_kl_loss": True,
                "kl_loss_coef": 0.001,
                "kl_loss_type": "low_var_kl",
                "entropy_coeff": 0,
                "fsdp_config": {"param_offload": False, "optimizer_offload": False},
            },
            "rollout": {
                "name": opts.rollout,
                "n": opts.n,
                "tensor_model_parallel_size": 1,
                "gpu_memory_utilization": 0.5,
                "log_prob_micro_batch_size_per_gpu": 16,
                "multi_turn": {
                    "enable": True,
                    "max_assistant_turns": opts.max_assistant_turns,
                    "max_user_turns": opts.max_assistant_turns,
                    "tool_config_path": "tool_config.yaml",
                    "format": "hermes",
                },
                "agent": {"default_agent_loop": "bc_agent",
                          "agent_loop_config_path": "agent_loops.yaml"},
            },
            "ref": {"log_prob_micro_batch_size_per_gpu": 16, "fsdp_config": {"param_offload": True}},
        },
        "reward": {
            "custom_reward_function": {"path": REWARD_FN[0], "name": REWARD_FN[1],
                                       "reward_kwargs": {"turn_weight": 0.0, "tool_weight": 0.0,
                                                         "format_score": 0.0,
                                                         **({"reward_classes": dict(reward_classes)}
                                                            if reward_classes else {})}},
            "reward_manager": {"name": "naive"},
        },
        "trainer": {
            "critic_warmup": 0,
            "logger": ["console"],
            "project_name": "bootcamp",
            "experiment_name": opts.experiment,
            "n_gpus_per_node": opts.gpus_per_node,
            "nnodes": opts.nodes,
            "save_freq": 20,
            "test_freq": 10,
            "total_epochs": 15,
            "val_before_train": True,
            "default_local_dir": "checkpoints",
        },
    }


def sft_config(opts: TrainOptions, has_val: bool) -> dict[str, Any]:
    """The Hydra primary config for `verl.trainer.sft_trainer` (multi-turn messages with tools)."""
    return {
        "hydra": {"searchpath": ["pkg://verl.trainer.config"]},
        "defaults": ["sft_trainer_engine", "_self_"],
        "data": {
            "train_files": "train.parquet",
            "val_files": "val.parquet" if has_val else None,
            "messages_key": "messages",
            "tools_key": "tools",
            "train_batch_size": opts.train_batch_size(sft=True),
            "micro_batch_size_per_gpu": 4,
            "max_length": opts.max_prompt_length + opts.max_response_length,
            "max_token_len_per_gpu": 4 * (opts.max_prompt_length + opts.max_response_length),
            "truncation": "right",
            "custom_cls": {"path": SFT_DATASET[0], "name": SFT_DATASET[1]},
        },
        "model": {"path": opts.model},
        "optim": {"lr": 1e-5},
        "trainer": {
            "project_name": "bootcamp-sft",
            "experiment_name": opts.experiment,
            "logger": ["console"],
            "n_gpus_per_node": opts.gpus_per_node,
            "nnodes": opts.nodes,
            "total_epochs": 3,
            "save_freq": -1,
            "test_freq": -1 if not has_val else 50,
            "default_local_dir": "checkpoints",
        },
    }


def write_yaml(path: Path, data: Any, header: str = "") -> None:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
    path.write_text((header + "\n" if header else "") + text, encoding="utf-8")


CONFIG_PATH_ARG = '--config-path="$RUN_DIR"'  # the one argument of run.sh that the shell must expand


def launch_command(mode: str, opts: TrainOptions) -> list[str]:
    module = "verl.trainer.main_ppo" if mode == "rl" else "verl.trainer.sft_trainer"
    return ["python3", "-m", module, CONFIG_PATH_ARG, "--config-name=config", *opts.overrides]


def run_sh(mode: str, opts: TrainOptions, config: dict[str, Any] | None = None) -> str:
    """The launch script: `ray start` on the head (and the steps for workers) when nodes > 1. The relative
    paths of `config` (config.yaml) are anchored at the script's folder, wherever it has been moved."""
    cmd = launch_command(mode, opts)
    # quoted by position, never by content: an override may not smuggle shell code in (`--set '$(...)'`)
    parts = [c if i == 3 and c == CONFIG_PATH_ARG else shlex.quote(c) for i, c in enumerate(cmd)]
    anchors = [f'"{a}"' for a in anchor_overrides(config or {}, mode, RUN_DIR_VAR)]  # the shell expands RUN_DIR
    parts = [*parts[:5], *anchors, *parts[5:]]  # before the user's overrides, which win
    lines = ["#!/usr/bin/env bash",
             f"# {'GRPO' if mode == 'rl' else 'SFT'} with verl 0.9.1, written by bc-train. "
             "Extra Hydra overrides may follow: ./run.sh trainer.total_epochs=3",
             "set -euo pipefail",
             'RUN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"']
    if opts.nodes > 1:
        if mode == "rl":
            lines += [
                f"# {opts.nodes} nodes x {opts.gpus_per_node} GPUs. This folder must be at the same path on every"
                " node (shared filesystem),",
                "# and bc-train's package (bootcamp-harness[verl]) installed on every node.",
                "# On the head node (this script):   ray start --head --port=6379",
                "# On each worker node:               ray start --address=<head-ip>:6379",
                'if [[ "${BC_SKIP_RAY_START:-0}" != 1 ]]; then',
                "  ray start --head --port=6379 --num-gpus=" + str(opts.gpus_per_node),
                '  echo "now run on each of the other ' + str(opts.nodes - 1)
                + ' node(s): ray start --address=$(hostname -i):6379 --num-gpus='
                + str(opts.gpus_per_node) + '" >&2',
                '  echo "then press Enter" >&2; read -r _',
                "fi",
                "export RAY_ADDRESS=auto",
            ]
        else:
            lines += ["# Multi-node SFT uses torchrun; run this script on every node with NODE_RANK and MASTER_ADDR set.",
                      ': "${NODE_RANK:?set NODE_RANK}" "${MASTER_ADDR:?set MASTER_ADDR}"']
    if mode == "sft":
        launcher = (f"torchrun --nnodes={opts.nodes} --nproc_per_node={opts.gpus_per_node}"
                    + (' --node_rank="$NODE_RANK" --master_addr="$MASTER_ADDR" --master_port=29500'
                       if opts.nodes > 1 else " --standalone"))
        parts = [launcher, "-m", "verl.trainer.sft_trainer", *parts[3:]]
    lines.append(" ".join(parts) + ' "$@"')
    return "\n".join(lines) + "\n"


def readme(mode: str, opts: TrainOptions, counts: dict[str, int], bootcamps: list[str]) -> str:
    """A short README for the run directory."""
    what = ("GRPO (multi-turn, tools, environment feedback)" if mode == "rl"
            else "SFT on multi-turn tool-calling trajectories")
    files = (["train.parquet / val.parquet  verl RL rows (agent_name=bc_agent; identities as JSON text)",
              "config.yaml                  Hydra config composed over verl's ppo_trainer",
              "tool_config.yaml             verl tools: bc_train.verl_tool.BcVerlTool around each bootcamp tool",
              "agent_loops.yaml             registers bc_agent = bc_train.agent_loop.BcAgentLoop",
              "reward                       pkg://bc_train.reward compute_score (verifier on the last assistant"
              " turn;",
              "                             reward.custom_reward_function.reward_kwargs.{turn,tool}_weight add"
              " turn scores / tool rewards)"]
             if mode == "rl" else
             ["train.parquet / val.parquet  messages (tool_calls arguments as JSON text) + tools (JSON text)",
              "config.yaml                  Hydra config composed over verl's sft_trainer_engine",
              "                             (data.custom_cls = bc_train.sft_dataset.BcMultiTurnSFTDataset decodes"
              " the JSON)"])
    body = [f"# {opts.experiment}: {what}", "",
            f"Bootcamps: {', '.join(bootcamps) or '-'}. Rows: " + ", ".join(f"{k} {v}" for k, v in counts.items())
            + f". Model: {opts.model}. GPUs: {opts.nodes} node(s) x {opts.gpus_per_node}.", "",
            "```", "bc-train --check .     # verl composes, validates and loads everything (CPU, no network)",
            "./run.sh               # launch; append Hydra overrides, e.g. ./run.sh trainer.total_epochs=3", "```", "",
            "```", *files, "```", "",
            "Needs `pip install -e '.[verl]'` (verl 0.9.1) plus the rollout engine "
            f"({opts.rollout}) on every node. Checkpoints go to ./checkpoints.", ""]
    return "\n".join(body)
