#!/usr/bin/env bash
# Every test of the project, from a fresh clone: installs what is missing, then runs the Rust
# suite (SQLite always; PostgreSQL and Redis variants when reachable, and always under
# CI=true), the web app's type check, ESLint, Jest tests and bundle size budget, schemathesis
# over the OpenAPI document, and the browser end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

step "services"
source scripts/services.sh
echo "TEST_DATABASE_URL=${TEST_DATABASE_URL:-<unset>} TEST_REDIS_URL=${TEST_REDIS_URL:-<unset>}"

# From a fresh clone most of the time goes to compiling the Rust tests, installing the npm
# packages and fetching chromium. The tools (chromium, jq, schemathesis) download in the
# background from the start; the Rust test binaries build in the background too, at a lower
# priority, while the web app installs, bundles and runs its tests: the web step has idle
# time (downloads, one Jest worker, a single-threaded ESLint) that the compile fills, and
# keeps the CPU when both want it.
#
# Clippy lints during that test build: clippy-driver stands in for rustc on the workspace's
# own crates (RUSTC_WORKSPACE_WRAPPER, which is how `cargo clippy` runs it) and goes on to
# generate code, so the lints need no check build of their own (from a fresh clone ~220 s
# of CPU: clippy's check artifacts of every dependency could not reuse the test build's).
# The test build covers every target `cargo clippy --all-targets` would (libraries, also as
# unit tests, binaries, integration tests and examples; the workspace has no `cargo bench`
# targets). Exported for the whole script so that the test run and the doc-tests reuse
# these artifacts: a build without the wrapper would compile the workspace's crates again.
command -v clippy-driver >/dev/null || { echo "clippy-driver is missing: rustup component add clippy" >&2; exit 1; }
export RUSTC_WORKSPACE_WRAPPER="${RUSTC_WORKSPACE_WRAPPER:-$(command -v clippy-driver)}"
export CLIPPY_ARGS="-Dwarnings__CLIPPY_HACKERY__"
# CI builds from a fresh clone, once: rustc's incremental cache of the workspace's crates
# (written beside every artifact) is work and disk for a rebuild that never comes. A
# developer's `make test` keeps it, for the edit-and-rerun loop.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi
tools_log="$(mktemp)"
bash scripts/tools.sh >"$tools_log" 2>&1 &
tools=$!
rust_log="$(mktemp)"
# Its own process group (setsid), so that a failing step stops the whole build on exit.
# cargo-nextest runs the tests of every binary side by side, each test in its own process
# (settings in .config/nextest.toml); a fresh machine installs it first, built for a test
# runner's needs rather than as its release profile wants: no self-update (an HTTP client
# and archive formats), no optimisation, no LTO: ~5.5 min of CPU instead of ~14.5 (2026-11-27,
# this 2-core machine), and it only starts processes and reads their output.
#
# setsid gives the build its own scheduling autogroup (Linux with CONFIG_SCHED_AUTOGROUP, as
# here): `nice` then only ranks processes inside that group, and the group as a whole would
# get the same share of the CPU as the web step's. Renicing the group itself is what makes
# the web step come first (measured 2026-11-27: with the group at 0, Jest took 609 s of wall
# time beside the build from a fresh clone).
# `--timings` leaves each unit's compile time in target/cargo-timings/cargo-timing.html.
setsid bash -c '
  set -e
  echo 10 >/proc/self/autogroup 2>/dev/null || true
  if ! cargo nextest --version >/dev/null 2>&1; then
    echo "installing cargo-nextest"
    env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
      CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
      CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_INCREMENTAL=false \
      nice -n 10 cargo install --locked cargo-nextest --no-default-features
  fi
  nice -n 10 cargo nextest run --workspace --all-features --profile ci --no-run --timings
  # The production binary (`make run`) builds without the test features: check that feature
  # set too, so that an item gated behind `test-jobs` or `test-support` cannot leak into
  # production code unnoticed.
  nice -n 10 cargo check --workspace --lib --bins
' >"$rust_log" 2>&1 &
rust_build=$!
trap 'kill -- -"$rust_build" 2>/dev/null || true' EXIT

step "web app: install, build, type check + ESLint, unit tests, bundle size budget"
bash scripts/web.sh --no-type-check
# The type check and ESLint (one thread) run beside Jest (one worker on two cores): the step
# takes the longer of the two instead of their sum. The lint's output is shown after Jest's.
lint_log="$(mktemp)"
(cd frontend && npm run lint) >"$lint_log" 2>&1 &
lint=$!
jest_ok=true
(cd frontend && npm test) || jest_ok=false
lint_ok=true
wait "$lint" || lint_ok=false
cat "$lint_log"; rm -f "$lint_log"
$lint_ok || { echo "web app: type check or ESLint failed" >&2; exit 1; }
$jest_ok || { echo "web app: unit tests failed" >&2; exit 1; }
(cd frontend && npm run size)

step "rust: format, the test build with clippy's lints (started in the background)"
cargo fmt --all -- --check
rust_ok=true
wait "$rust_build" || rust_ok=false
cat "$rust_log"; rm -f "$rust_log"
$rust_ok || { echo "rust: the test build or a clippy lint failed" >&2; exit 1; }

step "rust: tests"
# Two runs: every test but those that measure time (`ci`), then those, four at a time and
# beside nothing else (`clock`; .config/nextest.toml). nextest does not run doc-tests:
# `cargo test --doc` does.
cargo nextest run --workspace --all-features --profile ci --no-fail-fast
cargo nextest run --workspace --all-features --profile clock --no-fail-fast
cargo test --workspace --all-features --doc

# Schemathesis and the browser tests serve from target/debug/searchdeck, which the Rust suite
# built for its own binary test (tests/serve.rs) with the same features as every other test:
# a separate `cargo build` would recompile the workspace for another feature set (~3 min).
test -x target/debug/searchdeck

tools_ok=true
wait "$tools" || tools_ok=false
cat "$tools_log"; rm -f "$tools_log"
$tools_ok || { echo "installing chromium, jq or schemathesis failed" >&2; exit 1; }

# The browser tests' timings (a 1,000-row page's frames against a budget) run alone; then
# schemathesis and the other browser tests share the machine. Each of the two left a core
# mostly idle on its own (schemathesis one Python thread, ~50 % of the machine; the browser
# tests ~72 %, waiting on syncs and page loads), 307 s and ~640 s one after the other on
# 2026-11-27.
step "end to end: the timings (e2e/perf.spec.ts, alone)"
bash scripts/e2e.sh e2e/perf.spec.ts

step "API fuzzing (schemathesis over /api/openapi.json) beside the other browser tests"
fuzz_log="$(mktemp)"
bash scripts/schemathesis.sh >"$fuzz_log" 2>&1 &
fuzz=$!
e2e_ok=true
mapfile -t specs < <(cd frontend && ls e2e/*.spec.ts | grep -vx 'e2e/perf.spec.ts')
bash scripts/e2e.sh "${specs[@]}" || e2e_ok=false
fuzz_ok=true
wait "$fuzz" || fuzz_ok=false
echo "--- API fuzzing ---"; cat "$fuzz_log"; rm -f "$fuzz_log"
$fuzz_ok || { echo "API fuzzing failed" >&2; exit 1; }
$e2e_ok || { echo "end to end failed" >&2; exit 1; }

step "all tests passed"
