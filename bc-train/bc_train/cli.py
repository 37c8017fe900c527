"""`bc-train`: task or trajectory rows -> a verl 0.9.1 run directory; `--check DIR` proves verl accepts it."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from bc_common.cli import BcCommand

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
--registry line, else bc-train stops naming it (FILE:LINE).

\b
Exit codes: 0 ok, 1 --check failed (the failing step is named), 2 bad input, usage or an unwritable
output (FILE:LINE: reason), 3 verl is not installed (for --check), 130 interrupted."""

# a Hydra override: [+|++|~]key.path[@package]=value (the key is never empty)
_OVERRIDE = re.compile(r"^(?:\+\+|\+|~)?[A-Za-z_][\w\-]*(?:[./][\w\-]+)*(?:@[\w.\-/]+)?=", re.S)



@click.command("bc-train", cls=BcCommand, epilog=EPILOG,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False),
              help="Run directory to write (missing or empty).")
@click.option("--force", is_flag=True, help="Clear a previous bc-train run in -o DIR first.")
@click.option("--registry", "--bootcamp-registry", "registry", type=click.Path(dir_okay=False, exists=True),
              help="Seed-format bootcamp_registry.jsonl for data_sources that are not installed bootcamps.")
@click.option("--check", "check_dir", type=click.Path(file_okay=False, exists=True),
              help="Check a run directory with verl itself (compose, validate, load tools/data/reward).")
@click.option("--mode", type=click.Choice(["rl", "sft"]), help="Force RL or SFT (default: from the rows).")
@click.option("--val", "val_file", type=click.Path(dir_okay=False, exists=True), help="Validation rows.")
@click.option("--model", default="Qwen/Qwen2.5-0.5B-Instruct", show_default=True,
              help="Model path or HF id (only written into the config; never downloaded here).")
@click.option("--rollout", type=click.Choice(["sglang", "vllm"]), default="sglang", show_default=True)
@click.option("--n", "n", type=click.IntRange(1), default=8, show_default=True, help="GRPO samples per prompt.")
@click.option("--batch-size", type=click.IntRange(1), help="Prompts per step (default 32 x GPUs; SFT 64 x GPUs).")
@click.option("--max-assistant-turns", type=click.IntRange(1), default=6, show_default=True)
@click.option("--gpus-per-node", type=click.IntRange(1), default=1, show_default=True)
@click.option("--nodes", type=click.IntRange(1), default=1, show_default=True)
@click.option("--tool-config", type=click.Path(dir_okay=False, exists=True),
              help="Seed-format tool YAML to use instead of the bootcamps' own (e.g. a bc-toolserve one).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Hydra override, passed through verbatim to run.sh (checked by --check).")
def cli(files: tuple[str, ...], out_dir: str | None, force: bool, registry: str | None, check_dir: str | None,
        mode: str | None, val_file: str | None, model: str, rollout: str, n: int, batch_size: int | None,
        max_assistant_turns: int, gpus_per_node: int, nodes: int, tool_config: str | None,
        overrides: tuple[str, ...]) -> None:
    """Write a verl training run (RL or SFT) from FILES or stdin, or --check one."""
    if check_dir:
        if out_dir or files:
            raise click.UsageError("--check DIR takes no input files and no -o")
        from .check import VerlMissing, check_run_dir

        try:
            ok = check_run_dir(Path(check_dir), log=lambda line: click.echo(line, err=True))
        except VerlMissing as exc:
            click.echo(f"bc-train: {exc}", err=True)
            sys.exit(3)
        sys.exit(0 if ok else 1)
    if not out_dir:
        raise click.UsageError("give -o DIR (or --check DIR)")
    for item in overrides:
        if not _OVERRIDE.match(item):
            raise click.UsageError(f"--set {item!r}: expected a Hydra override key=value (e.g. "
                                   "trainer.total_epochs=3, +key=value)")
    from .emit import emit_run
    from .verl_config import TrainOptions

    opts = TrainOptions(model=model, rollout=rollout, n=n, batch_size=batch_size,
                        max_assistant_turns=max_assistant_turns, gpus_per_node=gpus_per_node, nodes=nodes,
                        overrides=list(overrides), experiment=Path(out_dir).resolve().name)
    manifest = emit_run(list(files), Path(out_dir), opts, mode=mode, val_file=val_file,
                        tool_config=Path(tool_config) if tool_config else None,
                        registry=Path(registry) if registry else None, force=force)
    counts = ", ".join(f"{k} {v}" for k, v in manifest["counts"].items())
    click.echo(f"bc-train: {manifest['mode']} run in {out_dir} ({counts}); check: bc-train --check {out_dir}",
               err=True)


main = cli


if __name__ == "__main__":
    main()
