"""`bc-gen --list` and `bc-gen --describe NAME`: tables for people, JSON for scripts, YAML for the seed's configs."""
from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson

from bc_common.catalog import get_bootcamp
from bc_common.describe import description, listings, seed_configs, write_seed_configs, yaml_text
from bc_common.errors import ConfigError


def print_listing(fmt: str) -> None:
    rows = listings()
    if fmt == "json":
        sys.stdout.buffer.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2) + b"\n")
        return
    if fmt != "text":
        raise ConfigError(f"--list --format {fmt}: choose text or json")
    ok = [r for r in rows if r["available"]]
    table = [(r["name"], ",".join(r["tools"]) or "-", "yes" if r["interaction"] else "no", ",".join(r["groups"]),
              r["description"]) for r in ok]
    header = ("NAME", "TOOLS", "INTER", "GROUPS", "DESCRIPTION")
    widths = [max(len(row[i]) for row in [header, *table]) for i in range(4)]  # columns fit every name whole
    for row in [header, *table]:
        click.echo(" ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + " " + row[4])
    missing = [r for r in rows if not r["available"]]
    if missing:
        click.echo(f"\nunavailable ({len(missing)}):")
        width = max(len(r["name"]) for r in missing)
        for r in missing:
            click.echo(f"  {r['name']:<{width}}  {r.get('reason', '')}")
            if r.get("description"):
                click.echo(f"  {'':<{width}}  {r['description']}")
    click.echo("\nby collection:")
    counts = collection_counts(rows)
    width = max(len(name) for name in counts)
    for name, (available, unavailable, origin) in counts.items():
        click.echo(f"  {name:<{width}}  {available} available, {unavailable} unavailable  ({origin})")
    click.echo(f"{len(ok)} available, {len(missing)} unavailable")


def collection_counts(rows: list[dict]) -> dict[str, tuple[int, int, str]]:
    """(available, unavailable, origin) per collection: `rg/` for nested names (`rg/leg_counting`), else the
    folder the bootcamp comes from (`bootcamps/`) or its entry point."""
    counts: dict[str, tuple[int, int, str]] = {}
    for r in rows:
        # "bootcamps/rg (bootcamp-harness 0.1.0, entry point ...): leg_counting" -> path, origin
        path, _, rest = r["source"].partition(" (")
        origin = rest.split(")")[0] if rest else "not installed"
        if "/" in r["name"]:
            name = r["name"].split("/")[0] + "/"
        else:
            name = path.rpartition("/")[0] + "/" if "/" in path else (path or r["name"])
        available, unavailable, _ = counts.get(name, (0, 0, origin))
        counts[name] = (available + r["available"], unavailable + (not r["available"]), origin)
    return counts


def print_description(name: str, fmt: str, output: str | None) -> None:
    if fmt == "yaml":
        bootcamp = get_bootcamp(name)
        if output:
            for path in write_seed_configs(bootcamp, Path(output)):
                print(f"bc-gen: wrote {path}", file=sys.stderr)
            return
        for file_name, doc in seed_configs(bootcamp).items():
            click.echo(f"# --- {file_name}\n{yaml_text(doc)}", nl=False)
        return
    facts = description(name)
    if fmt == "json":
        sys.stdout.buffer.write(orjson.dumps(facts, option=orjson.OPT_INDENT_2, default=str) + b"\n")
        return
    if fmt != "text":
        raise ConfigError(f"--describe --format {fmt}: choose text, json or yaml")
    click.echo(f"{facts['name']}: {facts['description']}")
    click.echo(f"  source       {facts['source']}")
    click.echo(f"  generator    {facts['generator']}\n  verifier     {facts['reward']}\n  policy       {facts['policy']}")
    click.echo(f"  interaction  {facts['interaction'] or 'none'}")
    if facts["limits"]:
        click.echo(f"  turn limits  {facts['limits']}")
    if facts.get("small_answer_space"):
        click.echo(f"  small answer space: {facts['small_answer_space']}")
    for check, reason in (facts.get("known_issues") or {}).items():
        click.echo(f"  known issue  {check}: {reason}")
    click.echo("  config (--set KEY=VALUE):")
    for f in facts["config"]:
        extra = f"  bounds {f['bounds']}" if "bounds" in f else ""
        click.echo(f"    {f['name']:<22} {str(f['type']):<12} default {f['default']!r}{extra}")
    if facts["config_checks"]:
        click.echo(f"    checks: {facts['config_checks']}")
    click.echo("  groups (--group NAME):")
    for g in facts["groups"]:
        tools = f"  tools: {', '.join(g['tools']) or 'none'}" if "tools" in g else ""
        click.echo(f"    {g['name']:<12} ratio {g['ratio']:<6} {orjson.dumps(g['params']).decode()}{tools}")
    click.echo("  baselines (--model builtin:baseline/NAME in bc-eval):")
    for b in facts["baselines"]:
        click.echo(f"    {b['name']:<12} {b['about']}{'  (blind: never looks at the picture)' if b.get('blind') else ''}")
    if not facts["baselines"]:
        click.echo("    none declared")
    click.echo("  tools:")
    for schema in facts["tool_schemas"]:
        fn = schema["function"]
        click.echo(f"    {fn['name']}({', '.join(fn.get('parameters', {}).get('properties', {}))}): "
                   f"{fn.get('description', '')}")
    if not facts["tool_schemas"]:
        click.echo("    none")
    example = facts["example"]
    if example:
        click.echo("  example task (seed 0, index 0):")
        for msg in example["prompt"]:
            content = msg["content"] if isinstance(msg["content"], str) else _parts_text(msg["content"])
            click.echo("    " + f"[{msg['role']}] {content}".replace("\n", "\n    "))


def _parts_text(parts: list) -> str:
    """Content parts as text, each image as `[image WxH]` (its data URL would fill the terminal)."""
    from bc_common.images import image_bytes, is_image_part, part_url

    out = []
    for part in parts:
        if not is_image_part(part):
            out.append(str(part.get("text") or "") if isinstance(part, dict) else str(part))
            continue
        try:
            import io

            from PIL import Image

            with Image.open(io.BytesIO(image_bytes(part_url(part) or "")[0])) as image:
                out.append(f"[image {image.width}x{image.height}]")
        except Exception:
            out.append("[image]")
    return "\n".join(out)
