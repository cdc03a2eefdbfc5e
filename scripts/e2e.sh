#!/usr/bin/env bash
# Runs the browser tests against `searchdeck serve` on a temporary data dir and free ports.
# Arguments go to Playwright (e.g. `bash scripts/e2e.sh e2e/edits.spec.ts`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
data="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
log="$data/serve.log"
SEARCHDECK_DATA_DIR="$data" SEARCHDECK_BIND="127.0.0.1:$port" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((port + 1))" \
  SEARCHDECK_STATIC_DIR="$root/frontend/dist" "$root/target/debug/searchdeck" serve >"$log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "searchdeck serve exited" >&2; exit 1; }
  sleep 0.5
done
cd "$root/frontend"
if ! E2E_BASE_URL="http://127.0.0.1:$port" npm run e2e -- "$@"; then
  echo "--- server log ---"; tail -50 "$log"; exit 1
fi
