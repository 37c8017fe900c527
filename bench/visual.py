"""Visual tasks: what the harness adds to drawing pictures and to sizing them.

    python bench/visual.py [--rows 500]
Prints, for chart_read: rows/s of whole task rows (identity drawn, chart rendered, PNG encoded, row serialised)
vs rendering the same charts alone (the bootcamp's own work); and bc-eval's image preparation (data URL decoded,
scaled to a pixel budget, re-encoded, placed back in the prompt) vs a bare Pillow loop doing the same resize and
encode on the same bytes.
"""
from __future__ import annotations

import argparse
import base64
import io
import time
from types import SimpleNamespace

import orjson

from bc_common.images import ImageLimits, decode_data_url, encode_png, image_urls_of
from bc_common.tasks import TaskSet
from bc_eval.prompts import sent_prompt
from bootcamps.chart_read.render import render_chart


def rate(n: int, started: float) -> float:
    return n / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=500)
    n = parser.parse_args().rows
    tasks = TaskSet("chart_read", seed=1)
    identities = [tasks.identity(i) for i in range(n)]

    started = time.perf_counter()
    for ident in identities:
        render_chart(ident)
    render_rate = rate(n, started)
    started = time.perf_counter()
    lines = [orjson.dumps(tasks[i]) for i in range(n)]
    row_rate = rate(n, started)
    print(f"chart_read rows: {row_rate:,.0f}/s; rendering alone {render_rate:,.0f}/s: {row_rate / render_rate:.2f}x")

    from PIL import Image

    limits = ImageLimits(max_pixels=640 * 400 // 4)  # halves every chart's edges
    records = [SimpleNamespace(data=orjson.loads(line), source="tasks.jsonl", line=i) for i, line in enumerate(lines)]
    started = time.perf_counter()
    for record in records:
        sent_prompt(record, limits)
    prepare_rate = rate(n, started)
    pngs = [decode_data_url(image_urls_of(r.data["prompt"])[0])[0] for r in records]
    started = time.perf_counter()
    for png in pngs:  # the bare work: decode, resize, encode, base64
        image = Image.open(io.BytesIO(png))
        small = image.resize(limits.target(*image.size), Image.Resampling.BICUBIC)
        base64.b64encode(encode_png(small))
    bare_rate = rate(n, started)
    print(f"bc-eval image preparation (640x400 -> 320x200): {prepare_rate:,.0f} prompts/s; bare Pillow loop "
          f"{bare_rate:,.0f}/s: {prepare_rate / bare_rate:.2f}x")


if __name__ == "__main__":
    main()
