"""`bc-train`: task or trajectory rows -> a verl 0.9.1 run directory; `--check DIR` proves verl accepts it."""
from __future__ import annotations

import re
from pathlib import Path

import click

from bc_common.cli import BcCommand
from bc_common.cli_options import Count, force_option, output_option, registry_option

EPILOG = """\b
Examples:
  # GRPO on arithmetic (multi-turn, calculator tool, feedback turns), one 80 GB GPU
  bc-gen arithmetic -n 256 --split train | bc-train -o runs/a --model Qwen/Qwen2.5-0.5B-Instruct
  bc-train --check runs/a && runs/a/run.sh
  # SFT on solved trajectories
  bc-gen arithmetic -n 500 | bc-eval --model builtin:noisy | bc-filter --success --to sft \\
    | bc-train -o runs/sft1
  # tasks of seed registry bootcamps (not installed): their verifier, tools and interaction from the registry
  bc-train tasks.jsonl -o runs/c --registry bootcamp_registry.jsonl
  # 2 nodes x 8 GPUs, vLLM, any Hydra override verbatim
  bc-train tasks.jsonl -o runs/b --nodes 2 --gpus-per-node 8 --rollout vllm \\
    --set trainer.total_epochs=3 --set actor_rollout_ref.actor.optim.lr=2e-6

\b
Task rows (bc-gen) make an RL run, trajectory / `bc-filter --to sft` rows an SFT run; --mode overrides.
Without --val, rows of split test/val are the validation set, else ~5% are held out (stable by id).
--check needs the verl extra (pip install -e '.[verl]'); it runs on CPU without network.
-o DIR must be missing or empty; --force clears a previous bc-train run there (never any other folder,
never one holding an input). Every task's data_source must be scorable: an installed bootcamp or a
--registry line, else bc-train stops naming it (FILE:LINE). --check exits 1 naming the failing step."""

# a Hydra override: [+|++|~]key.path[@package]=value (the key is never empty)
_OVERRIDE = re.compile(r"^(?:\+\+|\+|~)?[A-Za-z_][\w\-]*(?:[./][\w\-]+)*(?:@[\w.\-/]+)?=", re.S)



@click.command("bc-train", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@output_option(help="Run directory to write (missing or empty).", default=None, metavar="DIR",
               type=click.Path(file_okay=False))
@force_option(help="Clear a previous bc-train run in -o DIR first.")
@registry_option(help="Seed-format bootcamp_registry.jsonl for data_sources that are not installed bootcamps.",
                 type=click.Path(dir_okay=False, exists=True))
@click.option("--check", "check_dir", type=click.Path(file_okay=False, exists=True),
              help="Check a run directory with verl itself (compose, validate, load tools/data/reward).")
@click.option("--mode", type=click.Choice(["rl", "sft"]), help="Force RL or SFT (default: from the rows).")
@click.option("--val", "val_file", type=click.Path(dir_okay=False, exists=True), help="Validation rows.")
@click.option("--model", default="Qwen/Qwen2.5-0.5B-Instruct", show_default=True,
              help="Model path or HF id (only written into the config; never downloaded here).")
@click.option("--rollout", type=click.Choice(["sglang", "vllm"]), default="sglang", show_default=True)
@click.option("--n", "n", type=Count(1, 1024), default=8, show_default=True, help="GRPO samples per prompt.")
@click.option("--batch-size", type=Count(1, 10**7), help="Prompts per step (default 32 x GPUs; SFT 64 x GPUs).")
@click.option("--max-assistant-turns", type=Count(1, 10_000), default=6, show_default=True)
@click.option("--gpus-per-node", type=Count(1, 1024), default=1, show_default=True)
@click.option("--nodes", type=Count(1, 100_000), default=1, show_default=True)
@click.option("--tool-config", type=click.Path(dir_okay=False, exists=True),
              help="Seed-format tool YAML to use instead of the bootcamps' own (e.g. a bc-toolserve one).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Hydra override, passed through verbatim to run.sh (checked by --check).")
def cli(files: tuple[str, ...], output: str | None, force: bool, registry: str | None, check_dir: str | None,
        mode: str | None, val_file: str | None, model: str, rollout: str, n: int, batch_size: int | None,
        max_assistant_turns: int, gpus_per_node: int, nodes: int, tool_config: str | None,
        overrides: tuple[str, ...]) -> None:
    """Write a verl training run (RL or SFT) from FILES or stdin, or --check one."""
    if check_dir:
        if output or files:
            raise click.UsageError("--check DIR takes no input files and no -o")
        from .check import check_run_dir

        return 0 if check_run_dir(Path(check_dir), log=lambda line: click.echo(line, err=True)) else 1
    if not output:
        raise click.UsageError("give -o DIR (or --check DIR)")
    for item in overrides:
        if not _OVERRIDE.match(item):
            raise click.UsageError(f"--set {item!r}: expected a Hydra override key=value (e.g. "
                                   "trainer.total_epochs=3, +key=value)")
    from .emit import emit_run
    from .verl_config import TrainOptions

    opts = TrainOptions(model=model, rollout=rollout, n=n, batch_size=batch_size,
                        max_assistant_turns=max_assistant_turns, gpus_per_node=gpus_per_node, nodes=nodes,
                        overrides=list(overrides), experiment=Path(output).resolve().name)
    manifest = emit_run(list(files), Path(output), opts, mode=mode, val_file=val_file,
                        tool_config=Path(tool_config) if tool_config else None,
                        registry=Path(registry) if registry else None, force=force)
    counts = ", ".join(f"{k} {v}" for k, v in manifest["counts"].items())
    click.echo(f"bc-train: {manifest['mode']} run in {output} ({counts}); check: bc-train --check {output}",
               err=True)


main = cli


if __name__ == "__main__":
    main()
