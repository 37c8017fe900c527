"""Benchmark: `bc-report` over 100,000 trajectories against a bare orjson pass over the same file.

    python bench/report.py [-n 100000] [--base 2000]

Real trajectories first (`bc-gen arithmetic` + `tictactoe` | `bc-eval --model builtin:noisy --samples 2`, --base
rows), then copied under new task ids up to -n rows in a temp file. Each command runs as a child process; the
figures are its wall time and peak resident memory (from wait4), and their ratios to the baseline measured in the
same run: a loop of `orjson.loads` over every line. The Vega bundle cache is warmed first (building it once costs
~10 s on a new machine). Targets for 100k trajectories: under 60 s and under 500 MB (issue 15); at most 4 s CPU
and 200 MB (issue 29, the HTML page).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson
from _child import run_child

try:
    import vl_convert  # noqa: F401
except ImportError:  # `make bench` installs the core only
    print("bench/report.py: skipped (needs the report extra: pip install 'bootcamp-harness[report]')")
    sys.exit(0)

BIN = Path(sys.executable).parent
BARE_PASS = """
import sys, orjson
n = 0
with open(sys.argv[1], "rb") as src:
    for line in src:
        orjson.loads(line)
        n += 1
print(n)
"""


def real_trajectories(folder: Path, rows: int) -> list[bytes]:
    tasks = folder / "tasks.jsonl"
    per_sample = rows // 2
    with tasks.open("wb") as fh:
        for name, n in (("arithmetic", per_sample * 3 // 5), ("tictactoe", per_sample - per_sample * 3 // 5)):
            fh.write(subprocess.run([str(BIN / "bc-gen"), name, "-n", str(n), "--seed", "11"], check=True,
                                    capture_output=True).stdout)
    traj = folder / "real.jsonl"
    subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:noisy", "--samples", "2", "-c", "64",
                    "-o", str(traj)], check=True, capture_output=True)
    return traj.read_bytes().splitlines()


def expand(lines: list[bytes], n: int, path: Path) -> None:
    """`n` trajectories: the real ones, then copies under new task ids (`<id>~<copy>`)."""
    rows = [orjson.loads(line) for line in lines]
    with path.open("wb") as fh:
        for i in range(n):
            row = rows[i % len(rows)]
            copy = i // len(rows)
            if copy:
                tid = f"{row['task_id']}~{copy}"
                row = {**row, "id": f"{tid}#{row['sample']}", "task_id": tid, "input": {**row["input"], "id": tid}}
            fh.write(orjson.dumps(row) + b"\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100_000)
    parser.add_argument("--base", type=int, default=2000, help="real trajectories made by bc-eval")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lines = real_trajectories(folder, args.base)
        data = folder / "traj.jsonl"
        expand(lines, args.n, data)
        size_mb = data.stat().st_size / 1e6
        subprocess.run([str(BIN / "bc-report"), str(folder / "real.jsonl"), "-o", str(folder / "warm.html")],
                       check=True, capture_output=True)  # builds the Vega bundle cache once
        base_wall, base_cpu, base_rss, out, _, _ = run_child([sys.executable, "-c", BARE_PASS, str(data)])
        assert int(out) == args.n
        html = folder / "report.html"
        wall, cpu, rss, _, err, code = run_child([str(BIN / "bc-report"), str(data), "-o", str(html)])
        if code:
            sys.exit(f"bc-report failed: {err.decode()}")
        html_mb = html.stat().st_size / 1e6
        md_wall, md_cpu, md_rss, _, err, code = run_child([str(BIN / "bc-report"), str(data), "--format", "md"])
        if code:
            sys.exit(f"bc-report --format md failed: {err.decode()}")
    print(f"{args.n:,} trajectories, {size_mb:,.0f} MB of JSONL ({args.base:,} real ones from bc-eval, copied)")
    print(f"  {'':38} {'wall':>7} {'cpu':>7} {'peak RSS':>9}   cpu / baseline cpu")
    print(f"  {'baseline: orjson.loads of every line':38} {base_wall:6.1f}s {base_cpu:6.1f}s {base_rss:6.0f} MB")
    print(f"  {'bc-report -o report.html':38} {wall:6.1f}s {cpu:6.1f}s {rss:6.0f} MB   {cpu / base_cpu:.2f}x"
          f"  (report {html_mb:.1f} MB)")
    print(f"  {'bc-report --format md':38} {md_wall:6.1f}s {md_cpu:6.1f}s {md_rss:6.0f} MB   {md_cpu / base_cpu:.2f}x")
    ok = wall < 60 and rss < 500
    print(f"  target: under 60 s (wall) and 500 MB for 100k: {'met' if ok else 'MISSED'}")
    fast = cpu <= 4 and rss <= 200
    print(f"  target (issue 29): at most 4 s CPU and 200 MB for 100k: {'met' if fast else 'MISSED'} "
          f"({cpu:.1f} s, {rss:.0f} MB)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
