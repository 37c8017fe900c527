#!/usr/bin/env bash
# The main job on the built-in default: no API key, no GPU, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
OUT=runs/demo
mkdir -p "$OUT"
echo "== 1. bc-gen: 5 arithmetic tasks (seeded; the same bytes on every machine)" >&2
"$BIN/bc-gen" arithmetic -n 200 --seed 1 -o "$OUT/tasks.jsonl"
head -n 2 "$OUT/tasks.jsonl" | "$BIN/python" -c '
import sys, json
for line in sys.stdin:
    row = json.loads(line)
    print("  task", row["id"], "|", row["reward_model"]["ground_truth"]["expression"], file=sys.stderr)'
if "$BIN/bc-eval" --help >/dev/null 2>&1; then
  echo "== 2. bc-eval: the built-in noisy model (reference policy that errs 30% of the time) through tools and feedback" >&2
  "$BIN/bc-eval" "$OUT/tasks.jsonl" --model builtin:noisy --samples 2 -o "$OUT/trajectories.jsonl" --summary "$OUT/summary.json"
  if "$BIN/bc-filter" --help >/dev/null 2>&1; then
    echo "== 3. bc-filter: keep solved trajectories, best per task, as SFT rows" >&2
    "$BIN/bc-filter" "$OUT/trajectories.jsonl" --min-score 1 --best-per-task --to sft --stats -o "$OUT/sft.jsonl"
  fi
  echo "outputs in $OUT/: tasks.jsonl trajectories.jsonl summary.json sft.jsonl" >&2
fi
