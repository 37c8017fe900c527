"""bc-gen: seeded, shardable task generation from bootcamps and seed-format YAML configs."""
from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson

from bc_common.cli import BcCommand
from bc_common.cli_options import Count, Number, output_option, registry_option, seed_option
from bc_common.config import parse_assignments, parse_json_object
from bc_common.errors import ConfigError, UsageError
from bc_common.instruction_config import parse_split_samples
from bc_common.locks import OutputLock
from bc_common.paths import refuse_collisions

MAX_ROWS = 10**10
JOBS = Count(1, 1024)

EXAMPLES = """
\b
Examples:
  bc-gen arithmetic -n 1000 --seed 7 > train.jsonl
  bc-gen arithmetic -n 100 --split test --exclude train.jsonl > test.jsonl
  bc-gen arithmetic -n 200000 -j 2 -o big.jsonl
  bc-gen arithmetic -n 1000 --shard 0/4 > part0.jsonl      # parts 0..3 concatenate to the full set
  bc-gen arithmetic -n 50 --set max_terms=12 --set max_digits=6 --format parquet -o hard.parquet
  bc-gen --config cfg/instruction_config.yaml --split-samples train:1000,test:100 -o data/
  bc-gen --registry bootcamp_registry.jsonl -j 4 -o data/ --concat --continue-on-error
  bc-gen arithmetic -n 100 --group hard                  # one difficulty group (repeatable)
  bc-gen arithmetic -n 500 --seed 2 --curriculum round1.jsonl --band 0.2:0.8   # next round's mix from a run
  bc-gen --list                                          # every bootcamp: source, tools, groups (--format json)
  bc-gen --describe arithmetic                           # config fields, groups, tool schemas, an example task
  bc-gen --describe arithmetic --format yaml -o cfg/     # the seed's three YAML configs, for --config and verl
  bc-gen --schema task | jq .
  bc-gen chart_read -n 20 > charts.jsonl                  # visual tasks: PNG data URLs inside the prompt
  bc-gen chart_read -n 100000 -o data/charts.jsonl --image-dir data/images   # images as files, by content hash

\b
Same bootcamp, config, seed, split and index => the same bytes, whatever -j or --shard.
Duplicate identities within a split are redrawn deterministically (reported on stderr).
Parquet output is verl's RL layout (RLHFDataset reads it as is); `bc-filter X.parquet -o X.jsonl` converts back.
Registry lines may set split_samples, output_dir, shuffle, gen_parquet, global_config_overrides and
tool_config_path / interaction_config_path for their bootcamp (see docs/bc-gen.md).
"""


@click.command("bc-gen", cls=BcCommand, epilog=EXAMPLES,
               context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.argument("bootcamp", required=False)
@click.option("-n", "count", type=Count(0, MAX_ROWS), default=10, show_default=True, help="Rows to generate.")
@seed_option(default=None, help="Base seed (default 0; config mode: global_config.default_seed).")
@click.option("--split", default="train", show_default=True, help="Split name (part of every row's seed).")
@click.option("--shard", default=None, help="K/M: emit only rows with index ≡ K (mod M).")
@click.option("-j", "--jobs", type=JOBS, default=1, show_default=True, help="Worker processes (same bytes as -j 1).")
@output_option(help="Output file (single bootcamp; '-' = stdout, the default) or folder (--config/--registry).",
               default=None, type=str)
@click.option("--output-dir", "--output_dir", "output_dir", default=None, hidden=True)
@click.option("--log-level", "--log_level", "log_level", default=None, hidden=True,
              type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False))  # the seed's; no-op
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet", "text", "json", "yaml"]), default=None,
              help="Rows: jsonl (default; .parquet output names imply parquet) or parquet. --list: text or json. "
                   "--describe: text, json, or yaml (the seed's configs).")
@click.option("--group", "groups", multiple=True, metavar="NAME",
              help="Only this difficulty group of the bootcamp (repeatable; default: all, mixed by ratio).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a generator parameter.")
@click.option("--curriculum", "curriculum", multiple=True, metavar="EVAL.jsonl",
              help="Mix the groups by their pass rates in these trajectories (bc-eval's output; repeatable for "
                   "shards): groups in --band share the rows, the others keep --explore of a share (see "
                   "docs/bc-gen.md). BOOTCAMP may be left out when the trajectories hold one.")
@click.option("--band", default="0.2:0.8", show_default=True, metavar="LO:HI",
              help="--curriculum: the pass rates worth training on.")
@click.option("--explore", type=Number(0, 1), default=0.1, show_default=True,
              help="--curriculum: the share, relative to a group in the band, kept by a group outside it (0 drops "
                   "it).")
@click.option("--image-dir", default=None, metavar="DIR",
              help="Write task images to DIR as files named by their SHA-256 and reference them by a path "
                   "relative to the output file (stdout: the current folder), instead of inline data URLs.")
@click.option("--exclude", multiple=True, metavar="FILE", help="Never emit an identity present in these task files.")
@click.option("--no-dedup", is_flag=True, help="Allow duplicate identities (fully independent rows).")
@click.option("--config", "--instruction-config", "config", type=click.Path(dir_okay=False), default=None,
              help="Seed-format instruction config YAML.")
@click.option("--split-samples", default=None, help="train:N,test:M (config and registry modes).")
@click.option("--shuffle/--no-shuffle", default=None,
              help="Shuffle each split with the seed (config mode; registry --concat outputs are shuffled unless "
                   "--no-shuffle).")
@click.option("--tool-config", type=click.Path(dir_okay=False), default=None, help="Global tool config YAML.")
@click.option("--interaction-config", type=click.Path(dir_okay=False), default=None,
              help="Global interaction config YAML.")
@click.option("--no-tool", is_flag=True, help="Rows without tools.")
@click.option("--no-interaction", is_flag=True, help="Rows without an interaction.")
@click.option("--global-config-overrides", default=None, help="JSON object overriding global_config keys.")
@click.option("--gen-parquet", "--gen_parquet", "gen_parquet", is_flag=True,
              help="Also write .parquet files (also: gen_parquet in the config or a registry line).")
@registry_option(help="Seed-format bootcamp_registry.jsonl: generate every entry.")
@click.option("--max-workers", type=JOBS, default=None, hidden=True)
@click.option("--continue-on-error", is_flag=True, help="Registry mode: keep going when one bootcamp fails.")
@click.option("--concat", "--concat-files", "concat", is_flag=True, help="Registry mode: also write DIR/<split>.jsonl.")
@click.option("--list", "list_", is_flag=True, help="List installed bootcamps (unavailable ones with the fix).")
@click.option("--describe", "describe", default=None, metavar="NAME", help="Describe one bootcamp.")
@click.option("--schema", type=click.Choice(["task", "trajectory"]), default=None, help="Print a record JSON Schema.")
def main(bootcamp, count, seed, split, shard, jobs, output, output_dir, fmt, sets, exclude, no_dedup, config,
         split_samples, shuffle, tool_config, interaction_config, no_tool, no_interaction,
         global_config_overrides, gen_parquet, registry, max_workers, continue_on_error, concat, list_, schema,
         log_level, groups, describe, image_dir, curriculum, band, explore):
    """Generate task rows (one JSON object a line) for BOOTCAMP, or from a --config / --registry."""
    output = output or output_dir
    jobs = max_workers or jobs
    if schema:
        from bc_common.records import SCHEMAS

        sys.stdout.buffer.write(orjson.dumps(SCHEMAS[schema], option=orjson.OPT_INDENT_2) + b"\n")
        return
    if list_ or describe:
        from .describe import print_description, print_listing

        if list_:
            print_listing(fmt or "text")
        else:
            print_description(describe, fmt or "text", output)
        return
    if (config or registry) and image_dir:
        raise UsageError("--image-dir works with a single BOOTCAMP")
    if (config or registry) and exclude:
        raise UsageError("--exclude works with a single BOOTCAMP; --config keeps its splits disjoint itself")
    if (config or registry) and curriculum:
        raise UsageError("--curriculum works with a single BOOTCAMP")
    refuse_collisions(reads=[*(("--exclude", p) for p in exclude), *(("--curriculum", p) for p in curriculum),
                             ("--config", config), ("--registry", registry),
                             ("--tool-config", tool_config), ("--interaction-config", interaction_config)],
                      writes=[("-o", output), ("--image-dir", image_dir)])
    if config or registry:
        from .splits import ConfigRun

        overrides = {}
        if global_config_overrides:
            overrides = parse_json_object(global_config_overrides, "--global-config-overrides")
        # parquet besides JSONL when asked here; else the registry line's gen_parquet, else the config's
        parquet = True if (gen_parquet or fmt == "parquet") else None
        run = ConfigRun(config_path=Path(config) if config else Path("."),
                        split_samples=parse_split_samples(split_samples), seed=seed, shuffle=shuffle, jobs=jobs,
                        tool_config=Path(tool_config) if tool_config else None,
                        interaction_config=Path(interaction_config) if interaction_config else None,
                        no_tool=no_tool, no_interaction=no_interaction, overrides=overrides,
                        bootcamp=bootcamp, params=parse_assignments(sets), gen_parquet=parquet)
        if registry:
            from .batch import run_registry

            if not split_samples:
                run.split_samples = {"train": 100, "test": 0}
            with OutputLock(output or "data/generated", prog="bc-gen"):  # one writer per output folder
                failures = run_registry(Path(registry), run, Path(output or "data/generated"), jobs=jobs,
                                        continue_on_error=continue_on_error, concat=concat,
                                        concat_shuffle=shuffle is not False)
            return 1 if failures else 0
        from .splits import run_config

        with OutputLock(output or "-", prog="bc-gen"):
            run_config(run, Path(output) if output else None)
        return
    ratios = None
    if curriculum:
        bootcamp, ratios = _curriculum(bootcamp, list(curriculum), band, explore, list(groups))
    if not bootcamp:
        raise click.UsageError("name a BOOTCAMP (see --list), or use --config FILE or --registry FILE")
    from .single import SingleRun, parse_shard, run_single

    if fmt is None:
        fmt = "parquet" if output and output.endswith(".parquet") else "jsonl"
    if fmt not in ("jsonl", "parquet"):
        raise ConfigError(f"--format {fmt} is for --list / --describe; rows are jsonl or parquet")
    run = SingleRun(bootcamp=bootcamp, n=count, seed=seed or 0, split=split, shard=parse_shard(shard), jobs=jobs,
                    params=parse_assignments(sets), no_tool=no_tool, no_interaction=no_interaction,
                    dedup=not no_dedup, exclude=list(exclude), groups=list(groups), image_dir=image_dir,
                    ratios=ratios)
    stats = run_single(run, output or "-", fmt)
    note = f", {stats.regenerated} duplicates regenerated" if stats.regenerated else ""
    if sys.stderr and not sys.stderr.closed:
        print(f"bc-gen: {run.bootcamp}: {stats.rows} rows ({run.split}){note}", file=sys.stderr)


def _curriculum(bootcamp: str | None, paths: list[str], band_text: str, explore: float,
                groups: list[str]) -> tuple[str, dict[str, float]]:
    """(the bootcamp, the next round's group weights) from the trajectories' pass rates; the mix goes to stderr."""
    from bc_common.catalog import get_bootcamp

    from .curriculum import Band, describe_mix, next_mix, pass_rates

    band = Band.parse(band_text)
    bootcamp, rates = pass_rates(paths, bootcamp)
    entries = next_mix(get_bootcamp(bootcamp).group_list(), rates, band, explore, only=groups)
    for line in describe_mix(entries, band):
        print(f"bc-gen: curriculum: {bootcamp}: {line}", file=sys.stderr)
    return bootcamp, {e.group: e.weight for e in entries if e.weight > 0}


if __name__ == "__main__":
    main()
