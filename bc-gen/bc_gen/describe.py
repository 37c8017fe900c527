"""`bc-gen --list` and `bc-gen --describe NAME`: tables for people, JSON for scripts, YAML for the seed's configs."""
from __future__ import annotations

import re
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
    click.echo(f"{'NAME':<28} {'TOOLS':<30} {'INTER':<5} {'GROUPS':<24} DESCRIPTION")
    for r in ok:
        tools = ",".join(r["tools"]) or "-"
        click.echo(f"{r['name']:<28} {tools[:30]:<30} {'yes' if r['interaction'] else 'no':<5} "
                   f"{','.join(r['groups'])[:24]:<24} {r['description']}")
    missing = [r for r in rows if not r["available"]]
    if missing:
        click.echo(f"\nunavailable ({len(missing)}):")
        for r in missing:
            click.echo(f"  {r['name']:<26} {r.get('reason', '')}")
    # "bootcamps/rg (harness 0.1.0, entry point ...): leg_counting" -> what is inside the parentheses
    sources = sorted({m.group(1) for r in ok if (m := re.search(r"\(([^()]*)\)", r["source"]))})
    click.echo(f"\n{len(ok)} available, {len(missing)} unavailable; from: {'; '.join(sources)}")


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
