//! What the integration screen shows of the events: the newest received, and a test event
//! the user sends to see one arrive. A test event goes through the same ingest as a
//! postback and is listed with the others, marked; no report counts it.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    attribution::ingest,
    ids::{new_id, now_ms, string_id},
    store::{self, attribution::events::StoredEvent},
};
use searchdeck_common::{
    attribution::{
        AttributionEvent, ClaimType, ConversionType, EventKind, INSTALL_EVENT, Provider,
    },
    money::currency::MoneyRule,
};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::provider_of;
use crate::{
    access::{Editor, Member},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiPath,
    state::AppState,
};

/// How many events the screen lists.
const RECENT: i64 = 50;

/// An event as the integration screen lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventItem {
    pub dedupe_id: String,
    /// `install` or `event`.
    #[schema(pattern = "^(install|event)$")]
    pub kind: String,
    pub event_name: String,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub adam_id: Option<i64>,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub campaign_id: Option<i64>,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub ad_group_id: Option<i64>,
    /// Absent when Search Match found the install.
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub keyword_id: Option<i64>,
    #[serde(with = "string_id::option")]
    #[schema(value_type = Option<String>)]
    pub ad_id: Option<i64>,
    /// `Click` (tap-through) or `Impression` (view-through).
    pub claim_type: Option<String>,
    pub country: Option<String>,
    /// A decimal string in `currency`, negative for a refund.
    pub revenue: Option<String>,
    pub currency: Option<String>,
    /// Unix ms.
    pub event_at: i64,
    pub install_at: i64,
    /// The install's day in its campaign group's time zone (YYYY-MM-DD): its cohort.
    pub install_day: String,
    /// Sent with "Send test event": listed, never counted.
    pub test: bool,
    pub received_at: i64,
}

impl From<StoredEvent> for EventItem {
    fn from(e: StoredEvent) -> EventItem {
        let revenue = e.revenue_micros.map(|m| {
            let rule = MoneyRule::of(e.currency.as_deref());
            rust_decimal::Decimal::new(m, 6)
                .round_dp(rule.digits)
                .to_string()
        });
        EventItem {
            dedupe_id: e.dedupe_id,
            kind: e.kind,
            event_name: e.event_name,
            adam_id: e.adam_id,
            campaign_id: e.campaign_id,
            ad_group_id: e.ad_group_id,
            keyword_id: e.keyword_id,
            ad_id: e.ad_id,
            claim_type: e.claim_type,
            country: e.country,
            revenue,
            currency: e.currency,
            event_at: e.event_at,
            install_at: e.install_at,
            install_day: e.install_day,
            test: e.test,
            received_at: e.received_at,
        }
    }
}

/// Answers 404 unless the workspace has connected `provider`; returns its integration id.
async fn connected(state: &AppState, workspace_id: &str, provider: Provider) -> ApiResult<String> {
    Ok(
        store::attribution::integrations::get(&state.db.pool, workspace_id, provider.name())
            .await?
            .ok_or_else(|| ApiError::not_found("Integration"))?
            .id,
    )
}

/// The newest events received from `provider` (at most 50), newest first.
#[utoipa::path(get, path = "/api/attribution/integrations/{provider}/events", tag = "attribution",
    params(("provider" = String, Path, description = "The connected provider", pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")),
    responses((status = 200, description = "The newest events", body = Envelope<Items<EventItem>>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 404, description = "Not connected", body = ErrorBody)))]
pub async fn recent(
    State(state): State<AppState>,
    user: Member,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&provider)?;
    connected(&state, &user.workspace_id, provider).await?;
    let rows = store::attribution::events::recent(
        &state.db.pool,
        &user.workspace_id,
        provider.name(),
        RECENT,
    )
    .await?;
    Ok(envelope::items(
        rows.into_iter().map(EventItem::from).collect(),
    ))
}

/// Sends a test install through `provider`'s ingest: it appears first in the events list,
/// marked as a test, and no report counts it. Tied to one of the workspace's synced
/// campaigns when there is one, so the screen shows what a real event would look like.
#[utoipa::path(post, path = "/api/attribution/integrations/{provider}/test-event", tag = "attribution",
    params(("provider" = String, Path, description = "The connected provider", pattern = "^(appsflyer|adjust|branch|singular|kochava|tenjin|revenuecat|custom)$")),
    responses((status = 200, description = "The test event as stored", body = Envelope<Items<EventItem>>),
              (status = 400, description = "Not a provider", body = ErrorBody),
              (status = 404, description = "Not connected", body = ErrorBody)))]
pub async fn test_event(
    State(state): State<AppState>,
    caller: Editor,
    ApiPath(provider): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let provider = provider_of(&provider)?;
    let integration = connected(&state, &caller.workspace_id, provider).await?;
    let campaign =
        store::attribution::events::any_campaign(&state.db.pool, &caller.workspace_id).await?;
    let now = OffsetDateTime::now_utc();
    let event = AttributionEvent {
        provider,
        dedupe_id: format!("test-{}", new_id()),
        kind: EventKind::Install,
        event_name: INSTALL_EVENT.to_string(),
        adam_id: campaign.and_then(|c| c.adam_id),
        org_id: campaign.map(|c| c.org_id),
        campaign_id: campaign.map(|c| c.campaign_id),
        ad_group_id: None,
        keyword_id: None,
        ad_id: None,
        claim_type: Some(ClaimType::Click),
        conversion_type: Some(ConversionType::Download),
        placement: Some("APPSTORE_SEARCH_RESULTS".to_string()),
        country: None,
        revenue: None,
        event_time: now,
        install_time: Some(now),
        device_id: None,
    };
    ingest::ingest(
        &state.db,
        &caller.workspace_id,
        &integration,
        std::slice::from_ref(&event),
        true,
        now_ms(),
    )
    .await?;
    let rows = store::attribution::events::recent(
        &state.db.pool,
        &caller.workspace_id,
        provider.name(),
        1,
    )
    .await?;
    Ok(envelope::items(
        rows.into_iter().map(EventItem::from).collect(),
    ))
}
