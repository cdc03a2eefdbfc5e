//! `POST /api/asa/reports`: every report table (docs/product.md#2-tables,
//! docs/product.md#7-the-calls-it-makes "asa other"), served by the report engine
//! ([`searchdeck_common::report`]) from our own synced data.
//!
//! The account comes from the `accountId` query (a connection of the caller's workspace;
//! another workspace's answers 404), the campaign group from `orgId` (required below
//! ORGS; a campaign group id as every route's [`ScopeQuery`] reads it, and one of the
//! connection's). Any role may read. A report whose browser
//! request is superseded is aborted by the browser; the handler's future is then dropped,
//! which sets the engine's [`Cancel`] so its off-thread work stops too.

mod schema;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    report::{self, Cancel, Context, Level, ReportBody},
    store,
};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;

pub use schema::{ReportItem, ReportMetrics, ReportResult};

use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(reports))
}

/// The account query (docs/product.md#7-account-query: "The account query uses accountId and
/// orgId") as the OpenAPI document lists it: `accountId` required. The handler reads it as the edit
/// routes do, through [`ScopeQuery`] (`orgId` a campaign group id, else 400 on it).
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AccountQuery {
    /// The connection (checked by the access guard).
    #[param(required = true)]
    pub account_id: Option<String>,
    /// The campaign group (v1 ad account id); required for CAMPAIGNS, GROUPS, KEYWORDS,
    /// NEGATIVE, SEARCHTERMS and ADS.
    pub org_id: Option<String>,
}

/// Sets the engine's cancel flag when dropped: the handler's future is dropped when the
/// client disconnects.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A report of one level over a range of days: rows (ids, names, statuses, the level's
/// columns and the metrics), the number of matching rows, totals over them, and optionally
/// one graph point per day. Money is in the campaign group's currency, floored to its
/// digits; ratios are fractions; a ratio without denominator is null. Growth-only columns
/// are null and listed in `locked` unless the plan includes them.
#[utoipa::path(post, path = "/api/asa/reports", tag = "reports",
    params(AccountQuery),
    request_body = ReportBody,
    responses(
        (status = 200, description = "The report", body = Envelope<ReportResult>),
        (status = 400, description = "Invalid level, dates, filters, sort or paging (errors name the field)", body = ErrorBody),
        (status = 404, description = "The account or campaign group is not the caller's", body = ErrorBody),
        (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn reports(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<ReportBody>,
) -> ApiResult<impl IntoResponse> {
    let query = body.parse().map_err(ApiError::validation)?;
    let row = account.item.0;
    let org = match query.level {
        Level::Accounts | Level::Orgs => None,
        _ => {
            let org_id = scope
                .org_id()?
                .ok_or_else(|| ApiError::field("orgId", "Please choose a campaign group"))?;
            let known = store::accounts::orgs(&state.db.pool, &row.id)
                .await?
                .iter()
                .any(|o| o.org_id == org_id);
            if !known {
                return Err(ApiError::not_found("Campaign group"));
            }
            store::report_entities::sync_org_of(&state.db.pool, &row.id, org_id).await?
        }
    };
    let ctx = Context {
        workspace_id: account.caller.workspace_id.clone(),
        account_id: row.id.clone(),
        org,
        columns: state
            .engines
            .plan(&state.db, &account.caller.workspace_id)
            .await?
            .columns(),
    };
    let guard = CancelOnDrop(Cancel::new());
    let answer = report::run(&state.db, &state.engines.reports, &ctx, &query, &guard.0).await?;
    drop(guard);
    Ok(envelope::ok(ReportResult::from(answer)))
}
