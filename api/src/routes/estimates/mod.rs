//! The keyword suggester's estimates (docs/api/suggester.md, "Estimates"):
//! `reports/asa/getEstimatedImpressions` (daily impressions a keyword may get, estimated
//! from the campaign group's own synced reports through the report engine) and
//! `reports/sov` (share of voice per keyword: Apple's impression-share report, as the
//! provider gives it). Both read for a connection (`accountId`) and campaign group
//! (`orgId`, default its first one in use); any member may call them (reads by POST).
//!
//! The estimate itself is a pure function of the group's keyword data (`estimate`), the
//! route that gathers that data is `impressions`, share of voice is `share_of_voice`; this
//! module holds the campaign group and country lookups both routes make.

mod estimate;
mod impressions;
pub mod share_of_voice;

use searchdeck_common::{
    countries,
    store::{
        self,
        accounts::{AccountRow, OrgRow},
    },
};
use utoipa_axum::router::OpenApiRouter;

pub use estimate::{KeywordData, estimate};

use crate::{
    access::ScopeQuery,
    domain::REQUIRED,
    error::{ApiError, ApiResult},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(impressions::estimated_impressions))
        .routes(route!(share_of_voice::share_of_voice))
}

/// Most keywords per estimate or share-of-voice request.
pub const KEYWORDS_MAX: usize = 1000;
/// Most countries per estimate.
pub const COUNTRIES_MAX: usize = 20;
/// Days of own data an estimate reads (the last 30 full days).
pub const ESTIMATE_DAYS: i64 = 30;

/// The campaign group `org_id` of `account` (404 when it is not one of its), or its first
/// one in use (400 `orgId` when it has none).
async fn org_of(state: &AppState, account: &AccountRow, q: &ScopeQuery) -> ApiResult<OrgRow> {
    let orgs = store::accounts::orgs(&state.db.pool, &account.id).await?;
    match q.org_id()? {
        Some(id) => orgs
            .into_iter()
            .find(|o| o.org_id == id)
            .ok_or_else(|| ApiError::not_found("Campaign group")),
        None => orgs
            .into_iter()
            .find(|o| o.selected)
            .ok_or_else(|| ApiError::field("orgId", REQUIRED)),
    }
}

/// A served country code, upper-cased.
fn country(code: &str) -> Option<String> {
    countries::find(code.trim()).map(|c| c.code.to_uppercase())
}
