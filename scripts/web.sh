#!/usr/bin/env bash
# Installs the web app's locked dependencies when needed, checks that the committed web client
# (frontend/src/api/generated) is what the committed OpenAPI document generates, and builds
# the app into frontend/dist.
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
# The client's types and zod validators are generated from src/api/openapi.json (what
# `searchdeck openapi` prints): a fresh generation into a temporary folder must equal the
# committed files, so a changed document without `npm run gen:api` (or a hand edit of the
# generated files) fails here. A plain folder compare, so it holds in a fresh clone too.
generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
SEARCHDECK_API_OUT="$generated" npm run --silent gen:api >/dev/null
if ! diff -r "$generated" src/api/generated >/dev/null; then
  diff -rq src/api/generated "$generated" >&2 || true
  echo "web client: src/api/generated is not what src/api/openapi.json generates; run \`npm run gen:api\` in frontend/ and commit" >&2
  exit 1
fi
if [ "$build" = bundle ]; then
  npm exec -- vite build
else
  npm run build
fi
