"""Shared pieces of the visual tests: running the CLIs, reading rows, decoding the images of a prompt."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from bc_common.images import decode_data_url, is_image_part, part_url

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]


def run(tool: str, *args: Any, cwd: Path | None = None, env: dict[str, str] | None = None,
        check: bool = True) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL",
                                                             "MAX_IMAGE_SIZE", "MIN_IMAGE_EDGE")}
    base["PYTHONPATH"] = str(ROOT) + os.pathsep + base.get("PYTHONPATH", "")
    proc = subprocess.run([str(BIN / tool), *map(str, args)], capture_output=True, cwd=cwd,
                          env={**base, **(env or {})}, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"{tool} {args} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    return proc


def rows(data: bytes | Path) -> list[dict[str, Any]]:
    raw = data.read_bytes() if isinstance(data, Path) else data
    return [orjson.loads(line) for line in raw.splitlines() if line.strip()]


def write_rows(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in items))
    return path


def image_urls(messages: list[dict[str, Any]]) -> list[str]:
    return [part_url(p) for m in messages if isinstance(m.get("content"), list)
            for p in m["content"] if is_image_part(p)]


def picture(url: str) -> Any:
    """The PIL image of a data URL."""
    from PIL import Image

    return Image.open(io.BytesIO(decode_data_url(url)[0]))
