#!/usr/bin/env bash
# Cached GET /v1/configs under load: starts ktuned, tunes one matrix (model-only is enough: the
# lookup path is the same), then drives the lookup with wrk (16 connections, 2 threads) from a
# separate process and reads the server-side p50/p99 from /metrics.
# Usage: bench/lookup_load.sh [build dir] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/bin
seconds=${2:-10}
state=$(mktemp -d)
"$bin/ktuned" --port 0 --db "$state/ktune.db" --data-dir examples --log-level warn >"$state/stdout" 2>"$state/log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$state"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$state/stdout" && break; sleep 0.1; done
address=$(sed -n 's|.*listening on http://||p' "$state/stdout")
signature=$(KTUNE_SERVER=$address "$bin/ktune" tune examples/hammond.mtx.gz --kernel spmv --dtype f32 --wait --json |
  grep -o '"signature": *"[0-9a-f]*"' | grep -o '[0-9a-f]\{64\}')
[ -n "$signature" ] || { echo "tune failed"; exit 1; }
url="http://$address/v1/configs?kernel=spmv&dtype=f32&signature=$signature"
curl -sf "$url" | grep -q '"match"' || { echo "lookup failed"; exit 1; }
wrk -t2 -c16 -d"${seconds}s" --latency "$url" | tee "$state/wrk"
curl -s "http://$address/metrics" | grep 'route="/v1/configs",quantile' | tee "$state/quantiles"
rps=$(awk '/Requests\/sec/ {print $2}' "$state/wrk")
p99=$(awk -F'} ' '/quantile="0.99"/ {print $2}' "$state/quantiles")
echo "{\"requests_per_second\": $rps, \"server_p99_seconds\": $p99, \"connections\": 16, \"cores\": $(nproc)}"
