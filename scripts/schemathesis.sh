#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document (schemathesis, bounded examples) against
# `searchdeck serve` on a temporary data dir and free ports. Fails on any 5xx, any answer
# outside the documented schemas (the JSON envelope) and any undocumented status.
# Installs schemathesis into a virtualenv under the cache dir on first use.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SEARCHDECK_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/searchdeck}/schemathesis"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "installing schemathesis into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis>=4.32,<5'
fi
data="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
log="$data/serve.log"
env -u DATABASE_URL -u QUEUE_URL -u REDIS_URL -u SMTP_URL SEARCHDECK_DATA_DIR="$data" \
  SEARCHDECK_BIND="127.0.0.1:$port" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((port + 1))" RUST_LOG=warn \
  "$root/target/debug/searchdeck" serve >"$log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 60); do
  curl -fsS "$base/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "searchdeck serve exited" >&2; exit 1; }
  sleep 0.5
done
# A signed-in caller, so routes behind the session are exercised beyond their 401.
cookie="$(curl -fsS -o /dev/null -D - -H 'content-type: application/json' \
  -d '{"email":"fuzz@example.com","password":"fuzz password","repeatPassword":"fuzz password"}' \
  "$base/api/auth/register" | sed -n 's/^set-cookie: \(sd_session=[^;]*\).*/\1/Ip' | head -1)"
[ -n "$cookie" ] || { echo "could not register the fuzzing user" >&2; exit 1; }
# The token goes in through the document's `session` cookie scheme, so requests generated
# without credentials (negative auth cases) really go without them.
printf '[auth.openapi.session]\napi_key = "%s"\n' "${cookie#*=}" >"$data/schemathesis.toml"
fuzz() {
  "$venv/bin/schemathesis" run "$base/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
    --phases examples,coverage,fuzzing --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-25}" \
    --seed "${SCHEMATHESIS_SEED:-1}" --generation-database none --workers 1 \
    --no-color "$@"
}
cd "$data"  # schemathesis keeps its state in the working directory
# Logout last: it ends the session the other routes run with.
if ! fuzz --exclude-path /api/auth/logout || ! fuzz --include-path /api/auth/logout; then
  echo "--- server log ---"; tail -50 "$log"; exit 1
fi
