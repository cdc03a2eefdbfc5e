//! Authorisation of every documented route, driven by the OpenAPI document: a route is
//! covered by being documented.
//!
//! - Public routes are listed here; every other operation declares the session scheme and
//!   answers 401 without a session.
//! - Operations that declare roles (`x-roles`, from the `Editor`/`Manager` guards) answer
//!   403 to a reader and not to the workspace's owner. Every other non-GET operation must be
//!   one that changes only the caller's own values (listed here), so a workspace write
//!   registered with the wrong guard fails this test.
//! - Every path parameter is a workspace resource id (`x-resource`, from `InWorkspace<T>`)
//!   or a child looked up within that resource (`x-resource.children`):
//!   another workspace's id answers exactly like a missing one (404, same body), the
//!   owner's answers something else. The one other kind is a public id (`x-public-id`, from
//!   `AppStoreId`): an App Store app id, not a record of ours, which any workspace may name;
//!   it answers 400 naming the parameter when it is not one, and what a GET answers for it
//!   comes from the caller's workspace only: another workspace's saved data for the same
//!   app answers exactly like an app nobody saved.
//!
//! The lists below are what the document is checked against; `roles` and `scoping` hold the
//! tests, `resources` a fixture per resource kind.

mod resources;
mod roles;
mod scoping;

use axum::http::Method;
use resources::{fresh_app_id, resource_in_workspace};
use serde_json::Value;

/// Routes anyone may call.
const PUBLIC_ROUTES: &[(&str, &str)] = &[
    ("post", "/api/auth/register"),
    ("post", "/api/auth/login"),
    ("get", "/api/auth/logout"),
    ("get", "/api/auth/recoveryPassword"),
    ("post", "/api/auth/checkCode"),
    ("post", "/api/auth/changePasswordByCode"),
    // What an invitation link offers, for the invite screen before sign-in (docs/api/team.md).
    ("post", "/api/team/invitation"),
    // Attribution providers' postbacks: another server's calls, named by the URL's secret
    // token (`access::PostbackIntegration`), with no session (docs/api/attribution.md).
    ("get", "/api/attribution/postbacks/{provider}/{token}"),
    ("post", "/api/attribution/postbacks/{provider}/{token}"),
];

/// Writes every member may make because they change only the caller's own values.
const OWN_VALUE_WRITES: &[(&str, &str)] = &[
    ("post", "/api/auth/changePassword"),
    ("post", "/api/users/changeValue"),
    ("put", "/api/options/front"),
    ("post", "/api/account/unuse"),
    // Column presets are the caller's own view (api/src/routes/fields/mod.rs).
    ("put", "/api/setFields/one"),
    ("patch", "/api/setFields/one/{id}"),
    ("delete", "/api/setFields/one/{id}"),
    // The activity log's read state is each member's own (readers mark too).
    ("patch", "/api/accountsActions/notifications/{type}"),
    ("patch", "/api/accountsActions/notifications/{type}/all"),
    // Accepting an invitation adds a workspace to the caller; it changes none of the current
    // workspace's things (docs/api/team.md).
    ("post", "/api/team/checkCode"),
    // Switching moves the caller's own session to another of their workspaces
    // (docs/api/team.md, "Workspaces").
    ("post", "/api/workspaces/switch"),
];

/// GET routes that change state (the spec keeps their method). Each is marked where it is
/// routed (`middleware::state_changing_gets`, documented as `x-state-changing`), so a
/// cross-site call is refused before it runs.
const STATE_CHANGING_GETS: &[&str] = &[
    "/api/account/oauth",
    "/api/account/urlOauth",
    "/api/account/use/{id}",
    "/api/asa/getAccountData",
    "/api/auth/logout",
    "/api/auth/recoveryPassword",
    "/api/pay/giveMeTrial",
    "/api/phrase/suggesterSearches/one/stop/{id}",
];

/// Path parameters that name a value (a table type), not a resource; they are checked by
/// the handler (400 for an unknown value), so they have no workspace scope.
const VALUE_PARAMS: &[(&str, &str)] = &[
    ("/api/setFields/all/{type}", "type"),
    ("/api/setFields/fields/{type}", "type"),
    // An App Store app (any app, not only the workspace's), checked by the handler.
    (
        "/api/phrase/getListByShuffleTitlesPopularities/{adamId}",
        "adamId",
    ),
    ("/api/timings/{type}/{countryCode}", "type"),
    ("/api/timings/{type}/{countryCode}", "countryCode"),
    // The goal optimisation type (CPA_GOAL, CPT_GOAL) the campaigns in the body turn on or
    // off (docs/product.md#7-the-calls-it-makes keeps it in the path); the campaigns are resolved
    // in the workspace.
    ("/api/optimization/rulesCampaigns/{id}", "id"),
    // Whether the activity log marks read or unread; the ids in the body are resolved in
    // the workspace (unknown ones ignored).
    ("/api/accountsActions/notifications/{type}", "type"),
    ("/api/accountsActions/notifications/{type}/all", "type"),
    // An invitation's email and role (POST), and what `{b}` names — member or invitation —
    // for DELETE, whose `{b}` is the workspace resource (docs/api/team.md).
    ("/api/team/one/{a}/{b}", "a"),
    ("/api/team/one/{a}/{b}", "b"),
    // A teammate's email, checked against the workspace's members and invitations (404 for
    // any other).
    ("/api/emails/one/{email}", "email"),
    // An attribution provider's name (400 for an unknown one); its integration is looked up
    // in the caller's workspace (404 when not connected there).
    ("/api/attribution/integrations/{provider}", "provider"),
    (
        "/api/attribution/integrations/{provider}/rotate",
        "provider",
    ),
    (
        "/api/attribution/integrations/{provider}/events",
        "provider",
    ),
    (
        "/api/attribution/integrations/{provider}/test-event",
        "provider",
    ),
    ("/api/attribution/integrations/{provider}/pull", "provider"),
    // A postback's provider and token: the integration they name, for that provider only
    // (404 alike for every URL that names none).
    // The MMP event a cost-per-event target is for (a name the providers send, checked by
    // the handler); the app beside it is a public App Store id (docs/api/benchmarks.md).
    (
        "/api/benchmarks/events/getAll/{adamId}/{eventName}",
        "eventName",
    ),
    ("/api/attribution/postbacks/{provider}/{token}", "provider"),
    ("/api/attribution/postbacks/{provider}/{token}", "token"),
];

/// Reads sent as POST (a search text, an id list or a report body too large for a query
/// string) that change nothing, so every member, readers included, may make them.
const READS_BY_POST: &[(&str, &str)] = &[
    ("post", "/api/asa/findApp"),
    // The keyword suggester's App Store searches, competitor reads and estimates.
    ("post", "/api/suggester/competitors/findApp"),
    ("post", "/api/competitors/findApp"),
    ("post", "/api/competitors/find"),
    ("post", "/api/competitors/get/many"),
    ("post", "/api/reports/asa/getEstimatedImpressions"),
    ("post", "/api/reports/sov"),
    ("post", "/api/asa/geo"),
    ("post", "/api/asa/reports"),
    ("post", "/api/asa/campaigns/calculateActiveKeywords"),
    ("post", "/api/asa/reports/changes"),
    ("post", "/api/asa/reports/additionalInfo/{id}"),
    ("post", "/api/asa/reports/totalsForAllAccounts"),
    ("post", "/api/asa/reports/totalsForCampaignsGroups"),
    ("post", "/api/asa/reports/calculateForecasts"),
    // Custom product page ads per campaign or ad group, and an ad group's ads in place of
    // its retired creative sets (api/src/routes/product_pages).
    ("post", "/api/asa/campaigns/checkCustomProductPageAds"),
    (
        "post",
        "/api/asa/campaigns/checkCustomProductPageAdsByAdGroups",
    ),
    ("post", "/api/creativeSet/getDetails/{id}/{adGroupId}"),
    // Campaign creation's name check and CPA-goal check (api/src/routes/creation/mod.rs).
    ("post", "/api/asa/campaigns/exists"),
    ("post", "/api/asa/groups/checkCampaignGroupsCPAGoals"),
];

/// Quick and bulk edits (api/src/routes/edits): editor-only writes addressed by a synced campaign, so
/// the checks below cover them only while they stay documented with their guard.
const EDIT_ROUTES: &[(&str, &str)] = &[
    ("put", "/api/asa/campaigns/update/{id}"),
    ("put", "/api/asa/groups/updatesV2/{id}"),
    ("put", "/api/asa/keywords/update/{a}/{b}"),
    // Bulk edits (api/src/routes/edits/bulk_routes.rs).
    ("put", "/api/asa/campaigns/updates"),
    ("put", "/api/asa/groups/updates/{id}"),
    ("put", "/api/asa/keywords/update/targeting/{id}"),
    ("put", "/api/asa/groups/updatesAllGroupsByCampaigns"),
    ("patch", "/api/asa/campaigns/replacePartName"),
    ("put", "/api/asa/keywords/add/negative"),
    ("put", "/api/asa/keywords/add/negative/{campaignId}"),
    ("delete", "/api/asa/campaigns"),
    ("delete", "/api/asa/groups"),
    ("delete", "/api/asa/keywords"),
    // Status quick edits (api/src/routes/edits/statuses.rs).
    ("put", "/api/asa/ads/update/{a}/{b}"),
    ("put", "/api/asa/keywords/update/negative/{id}"),
];

/// Every documented operation as (method, path, operation).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            ops.push((method.clone(), path.clone(), op.clone()));
        }
    }
    ops
}

/// `path` with every `{param}` replaced by `id`.
fn concrete(path: &str, id: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { id } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

fn method(m: &str) -> Method {
    Method::from_bytes(m.to_uppercase().as_bytes()).unwrap()
}
