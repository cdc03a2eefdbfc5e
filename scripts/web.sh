#!/usr/bin/env bash
# Installs the web app's locked dependencies when needed and builds it into frontend/dist.
# `--no-type-check` bundles without `tsc` first: for `make test`, whose lint step type-checks
# the same sources (tsc takes ~25 s of CPU; once is enough).
set -euo pipefail
build=build
[ "${1:-}" = "--no-type-check" ] && build=bundle
cd "$(dirname "$0")/../frontend"
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  # `npm install` with the committed lock installs exactly the locked versions. Not `npm ci`:
  # the registries reachable here lack some other platforms' optional native packages
  # (e.g. @swc/core-darwin-*), so the lock cannot list them and `npm ci` refuses it.
  npm install --no-audit --no-fund
  git diff --quiet -- package-lock.json 2>/dev/null || echo "note: npm changed package-lock.json" >&2
fi
if [ "$build" = bundle ]; then
  npm exec -- vite build
else
  npm run build
fi
