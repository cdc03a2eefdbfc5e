#!/usr/bin/env bash
# Installs the tools the later steps of `make test` need when they are missing: Debian's
# chromium (browser tests) and jq (schemathesis reads the sandbox account's ids), in one
# apt-get (two would wait on each other's dpkg lock), and schemathesis into a virtualenv
# under the cache dir. scripts/test.sh runs it in the background while the web app and the
# Rust code build (it mostly waits on the network); scripts/e2e.sh and
# scripts/schemathesis.sh still install what they need when run on their own.
set -euo pipefail
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
command -v jq >/dev/null || packages+=(jq)
if [ "${#packages[@]}" -gt 0 ]; then
  echo "installing Debian's ${packages[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi
venv="${SEARCHDECK_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/searchdeck}/schemathesis"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "installing schemathesis into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis>=4.32,<5'
fi
