#!/usr/bin/env bash
# Concatenate a sharded run's trajectories in shard order once every shard is done (docs/scale.md):
#   scripts/concat_shards.sh OUT M        # writes OUT/runs.jsonl from OUT/runs/part-0..M-1.jsonl
# A shard without its .done mark stops it (exit 1, naming the shards to rerun); nothing half-written is published.
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 OUT M" >&2; exit 2; fi
out=$1 m=$2
missing=()
for ((k = 0; k < m; k++)); do
  [ -e "$out/runs/part-$k.done" ] || missing+=("$k")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$0: shards not done: ${missing[*]} (rerun them; finished ones are skipped)" >&2
  exit 1
fi
tmp=$(mktemp "$out/.runs.jsonl.XXXXXX")
trap 'rm -f "$tmp"' EXIT
for ((k = 0; k < m; k++)); do cat "$out/runs/part-$k.jsonl"; done > "$tmp"
mv "$tmp" "$out/runs.jsonl"
trap - EXIT
