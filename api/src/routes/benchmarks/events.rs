//! Cost-per-event targets (`benchmarks/events`): per app, MMP event and storefront, the
//! most the workspace wants to pay for one event (a trial, a purchase), in the app's campaign
//! group's currency. Event names are those the attribution event settings know
//! (`mmpEventsSettings/allNames`): names a provider sent for the app (or without an app).

use axum::{
    extract::{Path, State},
    response::IntoResponse,
};
use searchdeck_common::{
    ids::{now_ms, string_id},
    store::{
        self,
        benchmarks::{Kind, Target},
    },
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Benchmarks, Checker, EVENT_NAME_MAX, answer, check_len, country_out, decimal, write};
use crate::{
    access::{AppStoreId, Editor, Member},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    state::AppState,
};

/// A cost-per-event target.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventTarget {
    #[serde(with = "string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    /// The MMP event's name, as the provider sends it.
    pub event_name: String,
    /// Storefront (ISO code); null: all countries.
    pub country: Option<String>,
    /// Exact decimal in `currency`.
    pub cost_per_event: String,
    pub currency: String,
    /// Unix ms of the last change.
    pub updated_at: i64,
}

impl From<Target> for EventTarget {
    fn from(t: Target) -> EventTarget {
        EventTarget {
            adam_id: t.adam_id,
            event_name: t.event_name,
            country: country_out(t.country),
            cost_per_event: decimal(t.value_micros),
            currency: t.currency.unwrap_or_default(),
            updated_at: t.updated_at,
        }
    }
}

/// An event name as sent: trimmed, 1 to [`EVENT_NAME_MAX`] characters, no control
/// characters.
fn event_name(raw: &str) -> Option<String> {
    let name = raw.trim();
    (!name.is_empty()
        && name.chars().count() <= EVENT_NAME_MAX
        && !crate::input::has_control(name, false))
    .then(|| name.to_string())
}

/// Message of a name that is not one.
const NOT_A_NAME: &str = "An event name of 1 to 200 characters";

/// The app's cost-per-event targets of event `eventName` (no published figures exist for
/// them: `reference` is empty).
#[utoipa::path(get, path = "/api/benchmarks/events/getAll/{adamId}/{eventName}", operation_id = "get_event_benchmarks", tag = "benchmarks",
    params(("adamId" = String, Path, description = "App Store app id (digits)"),
           ("eventName" = String, Path, description = "The MMP event's name (`mmpEventsSettings/allNames`)")),
    responses((status = 200, description = "The targets", body = Envelope<Benchmarks<EventTarget>>),
              (status = 400, description = "Not an event name", body = ErrorBody)))]
pub async fn get_all(
    State(state): State<AppState>,
    user: Member,
    app: AppStoreId,
    path: Path<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let name = event_name(&path.0.1).ok_or_else(|| ApiError::field("eventName", NOT_A_NAME))?;
    let items = store::benchmarks::targets(
        &state.db.pool,
        &user.workspace_id,
        Kind::Events,
        app.id,
        Some(&name),
    )
    .await?
    .into_iter()
    .map(EventTarget::from)
    .collect();
    let result = answer(&state, &user.workspace_id, app.id, items, &[]).await?;
    Ok(envelope::ok(result))
}

/// One cost-per-event target to set or clear.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetEvent {
    /// An app of the workspace's campaign groups.
    #[schema(pattern = "^[1-9][0-9]{0,17}$")]
    pub adam_id: String,
    /// An event name a provider sent for the app (`mmpEventsSettings/allNames`).
    #[schema(min_length = 1, max_length = 200)]
    pub event_name: String,
    /// Storefront (ISO code); absent or null: all countries.
    #[serde(default)]
    #[schema(pattern = "^[A-Za-z]{2}$")]
    pub country: Option<String>,
    /// Exact decimal, at least 0, at most the currency's decimals; null clears the target.
    #[serde(default)]
    pub cost_per_event: Option<String>,
    /// The app's currency, when sent (another answers 400).
    #[serde(default)]
    pub currency: Option<String>,
}

/// `PATCH benchmarks/events/many`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetEvents {
    /// 1 to 1000 targets.
    pub items: Vec<SetEvent>,
}

/// Sets or clears cost-per-event targets, all or none: one bad item answers 400 naming
/// `items.N.field` and stores nothing. Answers the stored targets of the apps named.
#[utoipa::path(patch, path = "/api/benchmarks/events/many", operation_id = "set_event_benchmarks", tag = "benchmarks", request_body = SetEvents,
    responses((status = 200, description = "The targets of the apps named", body = Envelope<Items<EventTarget>>),
              (status = 400, description = "A bad item (nothing stored)", body = ErrorBody)))]
pub async fn set_many(
    State(state): State<AppState>,
    caller: Editor,
    ApiJson(body): ApiJson<SetEvents>,
) -> ApiResult<impl IntoResponse> {
    check_len(&body.items)?;
    let ws = &caller.workspace_id;
    let mut check = Checker::of(&state, ws).await?;
    let names = store::attribution::names::all(&state.db.pool, ws).await?;
    let now = now_ms();
    let (mut rows, mut seen) = (Vec::new(), Vec::new());
    for (i, item) in body.items.iter().enumerate() {
        let app = check.app(i, &item.adam_id);
        let country = check.country(i, item.country.as_deref());
        let name = match event_name(&item.event_name) {
            Some(n) => Some(n),
            None => {
                check.fail(format!("items.{i}.eventName"), NOT_A_NAME);
                None
            }
        };
        let (Some((adam_id, currency)), Some(country), Some(name)) = (app, country, name) else {
            continue;
        };
        if !names
            .iter()
            .any(|n| n.event_name == name && (n.adam_id == adam_id || n.adam_id == 0))
        {
            check.fail(
                format!("items.{i}.eventName"),
                "No provider sent this event for the app (see the event settings)",
            );
            continue;
        }
        let value = check.money(
            i,
            "costPerEvent",
            "Cost per event",
            item.cost_per_event.as_deref(),
            item.currency.as_deref(),
            &currency,
        );
        check.once(i, &mut seen, format!("{adam_id}/{name}/{country}"));
        if let Some(value) = value {
            let target = Target {
                adam_id,
                event_name: name,
                cohort: String::new(),
                country,
                value_micros: value.unwrap_or(0),
                currency: Some(currency),
                updated_at: now,
            };
            rows.push((target, value.is_some()));
        }
    }
    check.finish()?;
    let stored = write(&state, ws, &caller.user_id, Kind::Events, &rows, None).await?;
    Ok(envelope::items(
        stored.into_iter().map(EventTarget::from).collect(),
    ))
}
