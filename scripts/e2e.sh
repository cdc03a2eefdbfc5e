#!/usr/bin/env bash
# Runs the browser tests against `searchdeck serve` on a temporary data dir and free ports.
# Arguments go to Playwright (e.g. `bash scripts/e2e.sh e2e/edits.spec.ts`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The app served is frontend/dist unless E2E_STATIC_DIR names another build (a baseline
# build for before/after timings).
static="${E2E_STATIC_DIR:-$root/frontend/dist}"
data="$(mktemp -d)"
# Ports 30000-39999: scripts/schemathesis.sh takes 20000-29999, and the two run side by side.
port=$((30000 + RANDOM % 9990))
log="$data/serve.log"
mid_log="$data/serve-mid.log"
mkdir -p "$data/small" "$data/mid"
# The loopback is the servers' trusted reverse proxy: every browser test sends its own client
# address in X-Forwarded-For (frontend/e2e/helpers.ts, ownClientAddress), so the per-address
# sign-up throttle does not pace the suite.
export SEARCHDECK_TRUSTED_PROXIES=127.0.0.1
# Two servers: the sandbox's small world for the walks, and its mid-size world (an ad group
# of 2,200 keywords) for the 1,000-row timings of e2e/perf.spec.ts (E2E_MID_BASE_URL).
SEARCHDECK_DATA_DIR="$data/small" SEARCHDECK_BIND="127.0.0.1:$port" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((port + 1))" \
  SEARCHDECK_STATIC_DIR="$static" "$root/target/debug/searchdeck" serve >"$log" 2>&1 &
server=$!
SEARCHDECK_DATA_DIR="$data/mid" SEARCHDECK_BIND="127.0.0.1:$((port + 2))" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((port + 3))" \
  SEARCHDECK_SANDBOX_WORLD=mid SEARCHDECK_STATIC_DIR="$static" "$root/target/debug/searchdeck" serve >"$mid_log" 2>&1 &
mid_server=$!
cleanup() {
  kill "$server" "$mid_server" 2>/dev/null || true
  wait "$server" "$mid_server" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
for p in "$port" "$((port + 2))"; do
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$p/health" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null && kill -0 "$mid_server" 2>/dev/null || { cat "$log" "$mid_log"; echo "searchdeck serve exited" >&2; exit 1; }
    sleep 0.5
  done
done
cd "$root/frontend"
# E2E_SANDBOX_URL is the small world's sandbox (its control endpoints, docs/sandbox.md).
# E2E_SEARCHDECK_BIN and E2E_DATA_DIR let a test run the operator's commands on the small
# world's server (`searchdeck members set-role` makes a user a reader).
if ! E2E_BASE_URL="http://127.0.0.1:$port" E2E_MID_BASE_URL="http://127.0.0.1:$((port + 2))" \
  E2E_SANDBOX_URL="http://127.0.0.1:$((port + 1))" E2E_SEARCHDECK_BIN="$root/target/debug/searchdeck" E2E_DATA_DIR="$data/small" npm run e2e -- "$@"; then
  echo "--- server log ---"; tail -50 "$log"; echo "--- mid-world server log ---"; tail -20 "$mid_log"; exit 1
fi
