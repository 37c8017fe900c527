"""Real runs for bc-report tests: bc-gen tasks played by bc-eval's built-in models (reference, and noisy with two
seeds), made once per session; plus helpers to write hand-changed copies and to run the `bc-report` command."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import orjson
import pytest

BIN = Path(sys.executable).parent

pytest.importorskip("vl_convert", reason="bc-report tests need the report extra: pip install -e '.[report]'")


def run(*args: str | Path, stdin: bytes | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, timeout=timeout, env=env)


def bc_report(*args: str | Path, timeout: float = 240) -> subprocess.CompletedProcess:
    return run(BIN / "bc-report", *args, timeout=timeout)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def png(width: int = 24, height: int = 16) -> bytes:
    """A small red-and-blue PNG, made with zlib alone."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"".join(bytes((200, 30, 30) if x < width // 2 else (30, 30, 200))
                                       for x in range(width)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Trajectory files of one task set (60 arithmetic + 30 tic-tac-toe tasks, 2 samples each): `reference`,
    `noisy1` and `noisy2` (builtin:noisy with seeds 1 and 2)."""
    folder = tmp_path_factory.mktemp("runs")
    tasks = folder / "tasks.jsonl"
    with tasks.open("wb") as fh:
        for name, n in (("arithmetic", 60), ("tictactoe", 30)):
            proc = run(BIN / "bc-gen", name, "-n", str(n), "--seed", "3")
            assert proc.returncode == 0, proc.stderr.decode()
            fh.write(proc.stdout)
    out = {}
    for name, flags in (("reference", ["--model", "builtin:reference"]),
                        ("noisy1", ["--model", "builtin:noisy", "--param", "seed=1"]),
                        ("noisy2", ["--model", "builtin:noisy", "--param", "seed=2"])):
        out[name] = folder / f"{name}.jsonl"
        proc = run(BIN / "bc-eval", tasks, "--samples", "2", "-c", "16", "-o", out[name], *flags)
        assert proc.returncode == 0, proc.stderr.decode()
    return out
