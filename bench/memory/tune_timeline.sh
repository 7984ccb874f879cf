#!/usr/bin/env bash
# ktuned's resident memory through one tune: every move of 20 MiB or more with the job's phase,
# then the peak (VmHWM). Measured where ktuned has a GPU; model-only without one.
# Usage: bench/memory/tune_timeline.sh BIN_DIR KERNEL GENERATOR_JSON PROBLEM_JSON [DTYPE]
#   bench/memory/tune_timeline.sh .device-build/bin bfs \
#     '{"generator":"rmat","scale":22,"edge_factor":16,"seed":1}' '{"sources":[1668090]}' i32
set -euo pipefail
bin=$1 kernel=$2 generator=$3 problem=$4 dtype=${5:-i32}
work=$(mktemp -d)
mkdir -p "$work/data"
"$bin/ktuned" --port 0 --db "$work/ktune.db" --data-dir "$work/data" --max-nnz 400000000 --max-rows 268435456 \
  >"$work/out" 2>"$work/log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 300); do grep -q "listening on" "$work/out" 2>/dev/null && break; sleep 0.1; done
address=$(sed -n 's|.*listening on http://||p' "$work/out")
mib() { awk -v f="$1" '$1 == f":" {printf "%.0f", $2 / 1024}' "/proc/$pid/status"; }
job_field() { python3 -c 'import json, sys; j = json.load(sys.stdin); p = j.get("progress") or {}; print(j["state"], p.get("phase"))'; }
echo "idle: rss $(mib VmRSS) MiB"
job=$(curl -s -X POST "$address/v1/tune" -d "{\"kernel\":\"$kernel\",\"dtype\":\"$dtype\",\"problem\":$problem,\"workload\":$generator,\"budget\":{\"measurements\":8},\"wait\":false}" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["job"])')
start=$(date +%s.%N) last=0
while true; do
  rss=$(mib VmRSS)
  state=$(curl -s "$address/v1/jobs/$job" | job_field)
  if ((rss - last > 20 || last - rss > 20)); then
    printf "%7.2f s  rss %5d MiB  %s\n" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" "$rss" "$state"
    last=$rss
  fi
  case $state in done* | failed* | cancelled*) break ;; esac
  sleep 0.1
done
echo "peak $(mib VmHWM) MiB; $state"
