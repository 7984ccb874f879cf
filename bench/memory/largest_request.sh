#!/usr/bin/env bash
# Peak memory of ktuned under the largest single requests its default limits allow: an upload
# of a 2^23-entry Matrix Market file (gzip) and a model-only tune of it, in f32 then f64.
# Prints the daemon's baseline, peak (VmHWM) and final RSS after each, in MiB.
# Usage: bench/memory/largest_request.sh [BUILD_DIR]   (default build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/bin
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$work/big.mtx.gz" <<'PY'
import gzip, random, sys
random.seed(2)
n, per = 524288, 16  # 8,388,608 entries: the default --max-nnz
with gzip.open(sys.argv[1], "wt", compresslevel=1) as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n, n, n * per))
    for r in range(1, n + 1):
        f.write("".join("%d %d %.6f\n" % (r, c, random.random()) for c in random.sample(range(1, n + 1), per)))
PY
"$bin/ktuned" --port 0 --db "$work/ktune.db" --data-dir "$work" >"$work/out" 2>"$work/log" &
pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/out" 2>/dev/null && break; sleep 0.1; done
address=$(sed -n 's|.*listening on http://||p' "$work/out")
mib() { awk -v f="$1" '$1 == f":" {printf "%.0f", $2 / 1024}' "/proc/$pid/status"; }
echo "baseline RSS $(mib VmRSS) MiB"
upload=$(curl -s --data-binary @"$work/big.mtx.gz" -H 'Content-Type: application/octet-stream' "$address/v1/matrices")
id=$(echo "$upload" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])') || { echo "upload failed: $upload" >&2; exit 1; }
echo "after the upload ($(stat -c %s "$work/big.mtx.gz") bytes of gzip): peak $(mib VmHWM) MiB, now $(mib VmRSS) MiB"
for dtype in f32 f64; do
  curl -s -X POST "$address/v1/tune" -d "{\"kernel\":\"spmv\",\"dtype\":\"$dtype\",\"workload\":{\"upload\":\"$id\"},\"wait\":true,\"wait_seconds\":600}" >/dev/null
  echo "after the $dtype tune: peak $(mib VmHWM) MiB, now $(mib VmRSS) MiB"
done
