#!/usr/bin/env bash
# One shard of a sharded generate-and-evaluate run: the unit that GNU parallel, a Slurm job array and Ray tasks all
# run (docs/scale.md). Rerunning a shard resumes it: a finished shard is skipped, a torn one continues.
#
#   scripts/shard.sh K M OUT BC-GEN-ARGS... -- BC-EVAL-ARGS...
#   scripts/shard.sh 3 8 out arithmetic -n 1000 --seed 7 -- --model builtin:reference
#
# writes OUT/tasks/part-K.jsonl (bc-gen --shard K/M), OUT/runs/part-K.jsonl (bc-eval --resume) and, once both
# finished, OUT/runs/part-K.done. Concatenate OUT/runs/part-0..M-1.jsonl in shard order for the whole run.
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 K M OUT BC-GEN-ARGS... -- BC-EVAL-ARGS..." >&2
  exit 2
fi
k=$1 m=$2 out=$3
shift 3
gen_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do gen_args+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the --
case "$k/$m" in
  *[!0-9/]*|/*|*/) echo "$0: K and M must be whole numbers (got $k/$m)" >&2; exit 2 ;;
esac
if [ "$k" -ge "$m" ]; then
  echo "$0: shard $k of $m: K must be below M" >&2
  exit 2
fi

tasks="$out/tasks/part-$k.jsonl" runs="$out/runs/part-$k.jsonl" done_mark="$out/runs/part-$k.done"
mkdir -p "$out/tasks" "$out/runs"
if [ -e "$done_mark" ]; then
  echo "shard $k/$m: done already ($done_mark)" >&2
  exit 0
fi
# bc-gen publishes its output atomically and gives the same bytes on every rerun: an existing part is complete
[ -e "$tasks" ] || bc-gen "${gen_args[@]}" --shard "$k/$m" -o "$tasks"
bc-eval "$tasks" -o "$runs" --resume "$@"
# bc-eval exits 0 when only some model calls failed: such a shard is not done, so a rerun (--resume) retries them
if grep -q '"status":"error"' "$runs"; then
  echo "shard $k/$m: trajectories with status error in $runs: rerun this shard to resume them" >&2
  exit 1
fi
touch "$done_mark"
