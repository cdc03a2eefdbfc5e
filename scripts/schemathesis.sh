#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document (schemathesis, every check, bounded examples)
# against `searchdeck serve` on a temporary data dir and free ports, with a signed-in caller
# whose workspace holds a synced sandbox account, so path and query ids hit real data.
# Fails on any 5xx, any answer outside the documented schemas and statuses, any valid
# request refused (positive data acceptance) and any invalid one accepted (negative data
# rejection). Installs schemathesis into a virtualenv under the cache dir on first use.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SEARCHDECK_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/searchdeck}/schemathesis"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "installing schemathesis into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis>=4.32,<5'
fi
if ! command -v jq >/dev/null; then
  echo "installing Debian's jq"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null
fi
data="$(mktemp -d)"
# Ports 20000-29999: scripts/e2e.sh takes 30000-39999, and the two run side by side.
port=$((20000 + RANDOM % 9990))
log="$data/serve.log"
env -u DATABASE_URL -u QUEUE_URL -u REDIS_URL -u SMTP_URL SEARCHDECK_DATA_DIR="$data" \
  SEARCHDECK_BIND="127.0.0.1:$port" SEARCHDECK_SANDBOX_BIND="127.0.0.1:$((port + 1))" RUST_LOG=warn \
  "$root/target/debug/searchdeck" serve >"$log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
base="http://127.0.0.1:$port"
sandbox="http://127.0.0.1:$((port + 1))"
for _ in $(seq 1 60); do
  curl -fsS "$base/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "searchdeck serve exited" >&2; exit 1; }
  sleep 0.5
done
fail() { echo "$1" >&2; tail -50 "$log"; exit 1; }
# A signed-in caller, so routes behind the session are exercised beyond their 401.
cookie="$(curl -fsS -o /dev/null -D - -H 'content-type: application/json' \
  -d '{"email":"fuzz@example.com","password":"fuzz password","repeatPassword":"fuzz password"}' \
  "$base/api/auth/register" | sed -n 's/^set-cookie: \(sd_session=[^;]*\).*/\1/Ip' | head -1)"
[ -n "$cookie" ] || fail "could not register the fuzzing user"
api() { curl -fsS -H "cookie: $cookie" "$@"; }
json() { api -H 'content-type: application/json' "$@"; }

# A sandbox account connected by key pair, as a user connects one, and its sync awaited.
pem="$(json -X POST -d '{}' "$base/api/account/getPublicKey" | jq -r .result.publicKey)"
keys="$(curl -fsS -X POST --data-binary "$pem" "$sandbox/sandbox/keys")"
created="$(api -F name=Fuzz -F "clientId=$(jq -r .clientId <<<"$keys")" \
  -F "teamId=$(jq -r .teamId <<<"$keys")" -F "keyId=$(jq -r .keyId <<<"$keys")" \
  "$base/api/account/create")" || fail "could not connect the sandbox account"
account="$(jq -r .result.item._id <<<"$created")"
org="$(jq -r '.result.item.acls[0].orgId' <<<"$created")"
started=$(date +%s)
until [ "$(api "$base/api/tasks" | jq '[.result.items[] | select(.finish | not)] | length')" = 0 ]; do
  [ $(( $(date +%s) - started )) -lt 300 ] || fail "the sandbox account's sync did not finish"
  sleep 1
done
echo "sandbox account $account synced in $(( $(date +%s) - started ))s"
scope="accountId=$account&orgId=$org"
campaign="$(api "$base/api/asa/campaigns/list?$scope" | jq -r '[.result.items[] | select(.deleted | not)][0].campaignId')"
group="$(api "$base/api/asa/groups/$campaign?$scope" | jq -r '.result.items[0].adGroupId')"
task="$(api "$base/api/tasks" | jq -r '.result.items[0].id')"
tag="$(json -X PUT -d "{\"tags\":[{\"name\":\"Fuzz\",\"color\":\"Green\",\"type\":\"CAMPAIGNS\"}]}" \
  "$base/api/reports/tag/many" | jq -r '.result.items[0]._id')"
preset="$(json -X PUT -d '{"name":"Fuzz","type":"KEYWORDS","fields":["keyword"]}' \
  "$base/api/setFields/one" | jq -r '.result.item._id')"
rule="$(json -X PUT -d "{\"name\":\"Fuzz\",\"accountId\":\"$account\",\"orgId\":\"$org\",\"level\":\"CAMPAIGNS\",\"campaignIds\":[\"$campaign\"],\"conditions\":{\"operator\":\"AND\",\"groups\":[{\"operator\":\"AND\",\"conditions\":[{\"type\":\"metric\",\"metric\":\"taps\",\"operator\":\"GREATER_THAN\",\"value\":\"1\"}]}]},\"window\":{\"type\":\"last\",\"days\":7},\"frequency\":{\"type\":\"daily\",\"hour\":6},\"actions\":[{\"type\":\"pause\"}]}" \
  "$base/api/rules/user" | jq -r '.result.item.id')"
for v in account org campaign group task tag preset rule; do
  [ -n "${!v}" ] && [ "${!v}" != null ] || fail "no $v id for the fuzzing run"
done

# Positive data acceptance (a request the document allows is not refused) holds for every
# operation whose rules JSON Schema can state. These operations also have rules it cannot:
# - what is stored or what Apple holds decides: the key pair registered and Apple's token
#   exchange (account/create), the state and code of Apple's redirect (account/oauth), the
#   account's campaign groups and campaigns (addAccountIds, calculateActiveKeywords,
#   mark-hidden), names in use (tag/many, tag/one, setFields/one), the read-only Default
#   presets (setFields/one/default-<TYPE>), the text occurring in the
#   names (replacePartName), the mailed code or current password (checkCode,
#   changePasswordByCode, changePassword), Apple's minimum amounts per currency (quick edits);
# - fields that go together: the repeated password (register), a date range of at most 800
#   or 731 days with a start before its end and the level's scope (reports, changes, totals),
#   at least one value to change (quick edits), action, field and value of a bulk edit,
#   the route's ids (negatives; deleting campaigns, ad groups or keywords), a geo id or
#   legacy id;
# - the keyword suggester's collection: the app must be the campaign group's or sold on the
#   App Store in the country, the required keywords or competitors a suggestion type needs,
#   a task id to poll (phrase/getListByShuffleTitlesPopularities); a timing's type and
#   country are enumerations in the path (timings);
# - the keyword suggester: an app's saved competitors (at most 10) and the app itself (not
#   its own competitor) decide `suggester/competitors` and `competitors/many`; for
#   `reports/sov` Apple decides whether the app is the campaign group's, and the keywords
#   text must hold a keyword once parsed (docs/product.md#5-keyword-lists: a text of only
#   punctuation holds none);
# - estimated impressions need keywords that still hold a word once parsed
#   (docs/product.md#5-keyword-lists);
# - negative keyword lists and product pages: a list name unused in the workspace, keywords
#   that still hold a word once parsed (docs/product.md#5-keyword-lists), places, campaigns, ad
#   groups and ads of the workspace, the campaign's app and a page Apple has for it, a status
#   (`list/add`, `PUT list/{id}`, `productPages/*`, `checkCustomProductPageAds*`,
#   `creativeSet/updates`); the campaign group of an app's product pages (`productPages/all/adam`);
# - campaign creation and copies: the app must be the campaign group's, names new in it,
#   money in its currency at or above Apple's minimums (`asa/campaigns/asa/all`,
#   `asa/groups/createByList`, `asa/campaigns/copy`);
# - automated rules, goal optimisation and alerts (docs/api/rules.md): a rule's connection
#   and synced campaign group, its metrics and actions at its level, money in the group's
#   currency, campaigns of the group, rules and campaigns of the workspace, the plan's
#   limits (`rules/user*`, `rules/rulesCampaigns*`, `optimization/one/{id}`,
#   `optimization/rulesCampaigns/{id}`, and the unsaved rule of `rules/preview` and
#   `rules/backtest`), a Slack webhook URL that parses (`alerts/slack`);
# - the team (docs/api/team.md): members and invitations of the workspace and the role rules
#   (`team/one*`, `team/many`), the mailed invitation code (`team/checkCode`), an email in the
#   path that is an address and a teammate's, a message without control characters
#   (`emails/one/{email}`);
# - the activity log (docs/api/activity.md): both dates or neither, `fromDate` not after
#   `toDate` (`accountsActions/all`);
# - benchmarks (docs/api/benchmarks.md): an app of the workspace's campaign groups, a
#   country or region Apple Ads serves, an event name a provider sent for the app, the app's
#   currency (`benchmarks/*/many`);
# - App Store Connect (docs/api/app-store-connect.md): a PEM P-256 private key in the `.p8`
#   file part, and a key and vendor number App Store Connect accepts
#   (`users/one/connect/appStore`);
# Their rules are tested in the Rust suite (api/tests): here a 400 is an accepted answer to a
# schema-valid request of theirs, and every other check still runs on them.
beyond_schema='^(PUT /api/asa/campaigns/(asa/all|copy)|POST /api/asa/groups/createByList/\\{id\\}|POST /api/account/create|GET /api/account/oauth|POST /api/account/addAccountIds/\\{id\\}|POST /api/asa/campaigns/calculateActiveKeywords|POST /api/asa/campaigns/mark-hidden|PATCH /api/asa/campaigns/replacePartName|PUT /api/reports/tag/many|PATCH /api/reports/tag/one/\\{tagId\\}|PUT /api/setFields/one|(PATCH|DELETE) /api/setFields/one/\\{id\\}|POST /api/auth/(checkCode|changePasswordByCode|changePassword|register)|PUT /api/asa/campaigns/update/\\{id\\}|PUT /api/asa/groups/updatesV2/\\{id\\}|PUT /api/asa/keywords/update/\\{a\\}/\\{b\\}|POST /api/asa/reports(/changes|/totalsForAllAccounts|/totalsForCampaignsGroups)?|PUT /api/asa/campaigns/updates|PUT /api/asa/groups/updates/\\{id\\}|PUT /api/asa/groups/updatesAllGroupsByCampaigns|PUT /api/asa/keywords/update/targeting/\\{id\\}|PUT /api/asa/keywords/add/negative(/\\{campaignId\\})?|DELETE /api/asa/(campaigns|groups|keywords)|POST /api/asa/geo|POST /api/phrase/getListByShuffleTitlesPopularities/\\{adamId\\}|GET /api/timings/\\{type\\}/\\{countryCode\\}|POST /api/suggester/competitors(/many)?|POST /api/reports/sov|POST /api/reports/asa/getEstimatedImpressions|POST /api/list/add|PUT /api/list/\\{id\\}|GET /api/productPages/all/adam/\\{appId\\}|PUT /api/productPages/many/\\{id\\}(/\\{adamId\\}/\\{pageId\\})?|PATCH /api/productPages/many/\\{id\\}|POST /api/asa/campaigns/checkCustomProductPageAds(ByAdGroups)?|PUT /api/creativeSet/updates/\\{id\\}|PUT /api/rules/user(/\\{id\\})?|DELETE /api/rules/user/many|(PUT|DELETE) /api/rules/rulesCampaigns|(PUT|POST) /api/rules/rulesCampaigns/many/\\{id\\}|PUT /api/rules/rulesCampaigns/toggleRule|PUT /api/optimization/one/\\{id\\}|(POST|DELETE) /api/optimization/rulesCampaigns/\\{id\\}|POST /api/rules/(preview|backtest)|PUT /api/alerts/slack|(POST|DELETE) /api/team/one/\\{a\\}/\\{b\\}|PATCH /api/team/one/\\{id\\}|(PATCH|DELETE) /api/team/many|POST /api/team/checkCode|POST /api/emails/one/\\{email\\}|GET /api/accountsActions/all|PATCH /api/benchmarks/(installs|events|revenues)/many|PUT /api/users/one/connect/appStore)$'

# Two configurations: both sign in, through the document's `session` cookie scheme (so
# requests generated without credentials, the negative auth cases, really go without), and
# name the account and campaign group in every query; `pinned.toml` also puts real ids in
# the paths, so those requests reach the data (`{id}` names an account, a task, a campaign
# a preset or a rule depending on the route).
common() {
  cat <<EOF
[auth.openapi.session]
api_key = "${cookie#*=}"

[parameters]
"query.accountId" = "$account"
"query.orgId" = "$org"

[[operations]]
include-name-regex = "$beyond_schema"
checks = { positive_data_acceptance = { expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"] } }
EOF
}
common >"$data/unpinned.toml"
{ common; cat <<EOF

[[operations]]
include-name-regex = "^(PUT /api/optimization/one/|POST /api/rules/rulesCampaigns/many/)"
parameters = { "path.id" = "$campaign" }

[[operations]]
include-name-regex = "^PUT /api/rules/(user|rulesCampaigns/many)/"
parameters = { "path.id" = "$rule" }

[[operations]]
include-path-regex = "[{]"
parameters = { "path.campaignId" = "$campaign", "path.tagId" = "$tag", "path.a" = "$campaign", "path.b" = "$group" }

[[operations]]
include-path-regex = "^/api/account/"
parameters = { "path.id" = "$account" }

[[operations]]
include-path-regex = "^/api/tasks/"
parameters = { "path.id" = "$task" }

[[operations]]
include-path-regex = "^/api/phrase/suggesterSearches/"
parameters = { "path.id" = "$task" }

[[operations]]
include-path-regex = "^/api/setFields/one/"
parameters = { "path.id" = "$preset" }

[[operations]]
include-path-regex = "^/api/asa/"
parameters = { "path.id" = "$campaign" }
EOF
} >"$data/pinned.toml"
# Every check (`SCHEMATHESIS_CHECKS` narrows them, e.g. to not_a_server_error).
checks="${SCHEMATHESIS_CHECKS:-all}"
fuzz() {
  local config="$1" only="$2"; shift 2
  "$venv/bin/schemathesis" --config-file "$data/$config.toml" run "$base/api/openapi.json" \
    --checks "$only" --phases examples,coverage,fuzzing \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-25}" --seed "${SCHEMATHESIS_SEED:-1}" \
    --generation-database none --workers 1 --no-color "$@"
}
cd "$data"  # schemathesis keeps its state in the working directory
# Last, the operations that end what the others use: removing the account, signing out.
last='^(GET /api/auth/logout|DELETE /api/account/\{id\})$'
# Operations with an id in their path run twice: with the real ids pinned, every check but
# negative data rejection (a pinned id replaces the invalid id a negative case generates, so
# the request sent is valid); then with generated ids, negative data rejection (an id that
# exists nowhere answers 404, a rejection). One exclusion pattern per run: schemathesis
# requires every given filter of a kind to match.
with_ids='[{]'
negative=false
[ "$checks" = all ] || [[ "$checks" == *negative_data_rejection* ]] && negative=true
if ! fuzz pinned "$checks" --exclude-name-regex "$with_ids|$last" \
  || ! fuzz pinned "$checks" --exclude-checks negative_data_rejection \
    --include-name-regex "$with_ids" --exclude-name-regex "$last" \
  || { $negative && ! fuzz unpinned negative_data_rejection,not_a_server_error \
    --include-name-regex "$with_ids" --exclude-name-regex "$last"; } \
  || ! fuzz pinned "$checks" --include-name-regex "$last"; then
  echo "--- server log ---"; tail -50 "$log"; exit 1
fi
