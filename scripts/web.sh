#!/usr/bin/env bash
# Installs the web app's locked dependencies when needed and builds it into frontend/dist.
set -euo pipefail
cd "$(dirname "$0")/../frontend"
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund
fi
npm run build
