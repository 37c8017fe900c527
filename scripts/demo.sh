#!/usr/bin/env bash
# The main job on the built-in default: no API key, no GPU, no network.
#   bc-gen | bc-eval --model builtin:noisy | bc-filter --to sft | bc-train
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
OUT=runs/demo
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== 1. bc-gen: 200 arithmetic tasks (tools + feedback) and 100 tic-tac-toe games (environment-driven)," >&2
echo "      seeded: the same bytes on every machine" >&2
{ "$BIN/bc-gen" arithmetic -n 200 --seed 1; "$BIN/bc-gen" tictactoe -n 100 --seed 1; } > "$OUT/tasks.jsonl"

echo "== 2. bc-eval: the built-in noisy model (each bootcamp's reference policy, wrong 30% of the time) x 2 samples," >&2
echo "      through the tools and the environment's replies; the summary is per bootcamp" >&2
"$BIN/bc-eval" "$OUT/tasks.jsonl" --model builtin:noisy --samples 2 -c 64 \
  -o "$OUT/trajectories.jsonl" --summary "$OUT/summary.json"

echo "== one trajectory with a wrong answer, the environment's feedback and the retry:" >&2
"$BIN/python" - "$OUT/trajectories.jsonl" <<'PY' >&2
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["input"]["data_source"] == "bootcamp/arithmetic" and len(t["reward"]["turn_scores"]) > 1:
        break
for m in t["messages"]:
    text = (m.get("content") or "").replace("\n", " ")
    calls = " ".join(f'{c["function"]["name"]}({c["function"]["arguments"]})' for c in m.get("tool_calls", []))
    print(f'   {m["role"]:>9}: {(calls or text)[:100]}')
print(f'   score={t["score"]} status={t["status"]} turn_scores={t["reward"]["turn_scores"]}')
PY

echo "== 3. bc-filter: solved trajectories, best per task, as SFT rows" >&2
"$BIN/bc-filter" "$OUT/trajectories.jsonl" --min-score 1 --best-per-task --to sft --stats -o "$OUT/sft.jsonl"

echo "== 4. bc-train: a verl 0.9.1 GRPO run directory (multi-turn, tools, feedback turns) and an SFT one" >&2
"$BIN/bc-train" "$OUT/tasks.jsonl" -o "$OUT/rl" --model Qwen/Qwen2.5-0.5B-Instruct
"$BIN/bc-train" "$OUT/sft.jsonl" -o "$OUT/sft" --model Qwen/Qwen2.5-0.5B-Instruct
echo "== 5. bc-report: tables with confidence intervals, plots and a trajectory browser in one offline HTML file;" >&2
echo "      the same tasks played by the reference policy, compared pair by pair with the noisy run" >&2
"$BIN/bc-eval" "$OUT/tasks.jsonl" --model builtin:reference --samples 2 -c 64 -o "$OUT/reference.jsonl" 2>/dev/null
"$BIN/bc-report" "$OUT/trajectories.jsonl" --compare "$OUT/reference.jsonl" --title "bc-report: make demo" \
  -o "$OUT/report.html"
echo "outputs in $OUT/: tasks.jsonl trajectories.jsonl reference.jsonl summary.json sft.jsonl rl/ sft/ report.html" >&2
echo "next: bc-train --check $OUT/rl (needs: make setup-verl), then $OUT/rl/run.sh on a GPU node" >&2
echo "report: open $(pwd)/$OUT/report.html" >&2
echo "$(pwd)/$OUT/report.html"
