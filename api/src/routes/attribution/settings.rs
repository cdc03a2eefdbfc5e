//! The event settings (docs/product.md#7-the-calls-it-makes: `mmpEventsSettings`, `mmpEvents`; docs/api/attribution.md
//! "Event settings"): the event names each provider sent per app, and what each counts as in
//! the reports — a trial, a purchase (a new paying user), revenue — which the user changes;
//! the events that count; and which cohort (ROAS) windows have data yet.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    attribution::conversions::COHORT_DAYS,
    ids::{now_ms, string_id},
    store::{
        self,
        attribution::names::{Counts, EventName},
    },
};
use serde::{Deserialize, Serialize};
use time::Duration;
use utoipa::ToSchema;

use super::provider_of;
use crate::{
    access::{Editor, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// What an event name counts as in the reports.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CountsAs {
    /// Counted in `trials` and `costPerTrial`.
    pub trial: bool,
    /// Counted in `purchases` and `costPerPurchase` (a new paying user: not a renewal).
    pub purchase: bool,
    /// Its revenue counted in `totalRevenue`, `roas`, `arpu` and the cohort columns.
    pub revenue: bool,
}

/// An event name a provider sent for an app.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventNameItem {
    pub provider: String,
    /// The app (null when the provider did not name it).
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub adam_id: Option<i64>,
    pub event_name: String,
    pub counts_as: CountsAs,
    /// Events of this name received (test events left out).
    pub events: i64,
    /// Unix ms.
    pub first_seen_at: i64,
    pub last_seen_at: i64,
}

impl From<EventName> for EventNameItem {
    fn from(n: EventName) -> EventNameItem {
        EventNameItem {
            provider: n.provider,
            adam_id: (n.adam_id != 0).then_some(n.adam_id),
            event_name: n.event_name,
            counts_as: CountsAs {
                trial: n.counts.trial,
                purchase: n.counts.purchase,
                revenue: n.counts.revenue,
            },
            events: n.events,
            first_seen_at: n.first_seen_at,
            last_seen_at: n.last_seen_at,
        }
    }
}

/// Every event name the workspace's providers sent, per provider and app, with what each
/// counts as.
#[utoipa::path(get, path = "/api/mmpEventsSettings/allNames", tag = "attribution",
    responses((status = 200, description = "The event names", body = Envelope<Items<EventNameItem>>)))]
pub async fn all_names(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let names = store::attribution::names::all(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(
        names.into_iter().map(EventNameItem::from).collect(),
    ))
}

/// `PATCH mmpEventsSettings/one`'s body: one event name and what it counts as.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetEventName {
    /// The provider's wire name (`appsflyer`).
    #[schema(pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")]
    pub provider: String,
    /// The app, as listed (null or absent: the provider did not name it).
    #[serde(default, with = "string_id::option")]
    #[schema(value_type = Option<String>, pattern = "^[0-9]{1,18}$")]
    pub adam_id: Option<i64>,
    #[schema(min_length = 1, max_length = 200)]
    pub event_name: String,
    pub counts_as: CountsAs,
}

/// Sets what one event name counts as; the reports count it so from their next run (the
/// events already received included).
#[utoipa::path(patch, path = "/api/mmpEventsSettings/one", tag = "attribution", request_body = SetEventName,
    responses((status = 200, description = "The event name", body = Envelope<Item<EventNameItem>>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 404, description = "No such event name", body = ErrorBody)))]
pub async fn set_name(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<SetEventName>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&body.provider)?;
    let adam_id = body.adam_id.unwrap_or(0);
    let counts = Counts {
        trial: body.counts_as.trial,
        purchase: body.counts_as.purchase,
        revenue: body.counts_as.revenue,
    };
    let pool = &state.db.pool;
    let ws = &caller.workspace_id;
    if !store::attribution::names::set(pool, ws, provider.name(), adam_id, &body.event_name, counts)
        .await?
    {
        return Err(ApiError::not_found("Event name"));
    }
    let item = store::attribution::names::all(pool, ws)
        .await?
        .into_iter()
        .find(|n| {
            n.provider == provider.name() && n.adam_id == adam_id && n.event_name == body.event_name
        })
        .ok_or_else(|| ApiError::not_found("Event name"))?;
    Ok(envelope::item(EventNameItem::from(item)))
}

/// The events that count in the reports: every event name counted as a trial, a purchase
/// or revenue.
#[utoipa::path(get, path = "/api/mmpEvents/all", tag = "attribution",
    responses((status = 200, description = "The counted events", body = Envelope<Items<EventNameItem>>)))]
pub async fn all_events(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let names = store::attribution::names::all(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(
        names
            .into_iter()
            .filter(|n| n.counts.trial || n.counts.purchase || n.counts.revenue)
            .map(EventNameItem::from)
            .collect(),
    ))
}

/// A cohort (ROAS) window and whether it has data yet.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoiWindow {
    /// `D0`, `D1`, `D3`, `D7`, `D14` or `D30`.
    pub name: String,
    /// Days after the install the window sums.
    pub days: i64,
    /// The cohort column (`revenueD7`).
    pub column: String,
    /// Whether an attributed install is old enough for it.
    pub available: bool,
}

/// Which cohort windows have data: a window of N days once an attributed install is more
/// than N full days old (UTC).
#[utoipa::path(get, path = "/api/mmpEvents/getAvailableRois", tag = "attribution",
    responses((status = 200, description = "The cohort windows", body = Envelope<Items<RoiWindow>>)))]
pub async fn available_rois(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    let oldest =
        store::attribution::events::oldest_install_day(&state.db.pool, &user.workspace_id).await?;
    let today = searchdeck_common::zones::today(now_ms() / 1000, None);
    Ok(envelope::items(
        COHORT_DAYS
            .iter()
            .map(|&n| {
                let through = (today - Duration::days(n + 1)).to_string();
                RoiWindow {
                    name: format!("D{n}"),
                    days: n,
                    column: format!("revenueD{n}"),
                    available: oldest.as_deref().is_some_and(|d| d <= through.as_str()),
                }
            })
            .collect(),
    ))
}
