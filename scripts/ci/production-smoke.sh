#!/usr/bin/env bash
# A production install runs compiled code (CONTRIBUTING.md, docs/decisions.md). In a fresh clone of HEAD: `npm ci --omit=dev`,
# `npm run build`, then both services started with plain `node` on their dist/ entries (PGlite in a temp folder),
# probed on health and /metrics, and stopped. Exits non-zero when anything fails.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$src" "$work/app"
cd "$work/app"
npm ci --omit=dev --no-audit --no-fund >/dev/null
npm run -s build
if [ -d node_modules/tsx ] || [ -d node_modules/vitest ]; then echo "dev dependencies (tsx, vitest) were installed by npm ci --omit=dev: a runtime dependency pulls them in"; exit 1; fi

export DATA_DIR="$work/data" LOG_LEVEL=warn
PORT=3911 HOST=127.0.0.1 node packages/delivery-api/dist/main.js >"$work/delivery.log" 2>&1 &
pids+=($!)
RECOGNITION_PORT=3912 RECOGNITION_WORKERS=1 node packages/recognition-api/dist/main.js >"$work/recognition.log" 2>&1 &
pids+=($!)

probe() {
  for _ in $(seq 1 90); do
    if curl -fsS "$1" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "no answer from $1"; cat "$work"/*.log; return 1
}
probe http://127.0.0.1:3911/health/ready
probe http://127.0.0.1:3912/api/v1/health
# Read the whole answer first: `curl | grep -q` fails under pipefail when grep stops reading early (curl error 23).
curl -fsS http://127.0.0.1:3911/metrics >"$work/delivery.metrics" || { echo "delivery /metrics did not answer"; exit 1; }
grep -q '^delivery_http_request_duration_seconds' "$work/delivery.metrics" || { echo "delivery /metrics"; exit 1; }
curl -fsS http://127.0.0.1:3912/metrics >"$work/recognition.metrics" || { echo "recognition /metrics did not answer"; exit 1; }
grep -q '^recognition_queue_depth' "$work/recognition.metrics" || { echo "recognition /metrics"; exit 1; }
if grep -rqs "tsx" /proc/"${pids[0]}"/cmdline; then echo "delivery runs through tsx"; exit 1; fi
echo "production build: both services answer health and /metrics from dist/ with plain node"
