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
port=$((30000 + RANDOM % 9980))
# The loopback is the servers' trusted reverse proxy: every browser test sends its own client
# address in X-Forwarded-For (frontend/e2e/helpers.ts, ownClientAddress), so the per-address
# sign-up throttle does not pace the suite.
export SEARCHDECK_TRUSTED_PROXIES=127.0.0.1
# Only the servers the named specs use start (no spec named: every spec): e2e/perf.spec.ts
# runs against the mid-size world, every other spec (and the benchmarks, e2e/*.bench.ts with
# -c playwright.bench.config.ts) against the small world. A server that
# sits unused still builds its sandbox world and runs its scheduler, beside the timings
# spec's measured frames among others.
need_small=false need_mid=false named=false
for arg in "$@"; do
  case "$arg" in
    *perf.spec.ts) named=true need_mid=true ;;
    *.spec.ts | *.bench.ts) named=true need_small=true ;;
  esac
done
$named || need_small=true need_mid=true
# One server of the sandbox's small world per Playwright worker (E2E_WORKERS; by default one
# per two cores, at least two): every connect reaches the same sandbox campaigns, which the
# tests edit, so two tests at once each need a sandbox (and a server) of their own. On this
# 2-core machine, beside schemathesis, the 25 tests took 264 s with one worker and 210 s
# with two (2026-11-28, after the traces stopped recording screenshots: with them both
# cores were busy already and two workers gained little, 6.9 against 6.6 min). Plus one
# server of the mid-size world (an ad group of 2,200 keywords) for the 1,000-row timings of
# e2e/perf.spec.ts, which scripts/test.sh runs alone.
cores="$(nproc)"
workers="${E2E_WORKERS:-$(( cores / 2 > 2 ? cores / 2 : 2 ))}"
$need_small || workers=0
pids=()
logs=()
start_server() { # name, http port, extra environment...
  local name="$1" http="$2"; shift 2
  mkdir -p "$data/$name"
  env SEARCHDECK_DATA_DIR="$data/$name" SEARCHDECK_BIND="127.0.0.1:$http" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((http + 1))" \
    SEARCHDECK_STATIC_DIR="$static" "$@" "$root/target/debug/searchdeck" serve >"$data/$name.log" 2>&1 &
  pids+=("$!")
  logs+=("$data/$name.log")
}
origins=() sandboxes=() dirs=()
for i in $(seq 0 $((workers - 1))); do
  http=$((port + 2 * i))
  start_server "small-$i" "$http"
  origins+=("http://127.0.0.1:$http") sandboxes+=("http://127.0.0.1:$((http + 1))") dirs+=("$data/small-$i")
done
mid=$((port + 2 * workers))
if $need_mid; then
  start_server mid "$mid" SEARCHDECK_SANDBOX_WORLD=mid
  origins_up=("${origins[@]}" "http://127.0.0.1:$mid")
else
  origins_up=("${origins[@]}")
fi
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
for origin in "${origins_up[@]}"; do
  for _ in $(seq 1 60); do
    curl -fsS "$origin/health" >/dev/null 2>&1 && break
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || { cat "${logs[@]}"; echo "searchdeck serve exited" >&2; exit 1; }
    done
    sleep 0.5
  done
done
cd "$root/frontend"
join() { local IFS=,; echo "$*"; }
# Comma-separated, one per worker (frontend/playwright.config.ts and e2e/helpers.ts pick the
# worker's own): E2E_BASE_URL the servers, E2E_SANDBOX_URL their sandboxes (control
# endpoints, docs/sandbox.md), E2E_DATA_DIR their data dirs (the outbox, and
# `searchdeck members set-role` through E2E_SEARCHDECK_BIN).
vars=(E2E_SEARCHDECK_BIN="$root/target/debug/searchdeck")
if $need_small; then
  vars+=(E2E_BASE_URL="$(join "${origins[@]}")" E2E_SANDBOX_URL="$(join "${sandboxes[@]}")"
    E2E_DATA_DIR="$(join "${dirs[@]}")")
fi
$need_mid && vars+=(E2E_MID_BASE_URL="http://127.0.0.1:$mid")
if ! env "${vars[@]}" npm run e2e -- "$@"; then
  for l in "${logs[@]}"; do echo "--- $(basename "$l") ---"; tail -40 "$l"; done
  exit 1
fi
