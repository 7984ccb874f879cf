#!/usr/bin/env bash
# ctest's entry to the dashboard test: installs playwright-core (package-lock.json) into
# $KTUNE_DASHBOARD_WORK/node_modules, once per lock file, and runs dashboard_test.js with
# Debian's chromium against $KTUNED. KTUNE_DASHBOARD_SCREENSHOT=docs/dashboard.png refreshes the
# README's screenshot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${KTUNED:?KTUNED must name the ktuned binary}"
work=${KTUNE_DASHBOARD_WORK:?KTUNE_DASHBOARD_WORK must name a folder in the build dir}
for tool in node npm /usr/bin/chromium; do
  command -v "$tool" >/dev/null || { echo "dashboard test: $tool is missing (scripts/install-deps installs it)" >&2; exit 1; }
done
mkdir -p "$work"
# npm ci installs beside its package.json: a copy in the build dir keeps node_modules out of the
# source tree; the lock's hash says when to install again.
lock_hash=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$work/node_modules/.ktune-lock" 2>/dev/null)" != "$lock_hash" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$lock_hash" > "$work/node_modules/.ktune-lock"
fi
export NODE_PATH="$work/node_modules" KTUNE_DASHBOARD_OUT="$work"
exec node --test --test-reporter=spec "$here/dashboard_test.js"
