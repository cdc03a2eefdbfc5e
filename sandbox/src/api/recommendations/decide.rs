//! Applying or dismissing a recommendation: the request checked (the promoted object, the
//! recommendation still standing, an applied value other than the suggested one within
//! its bounds), the value written through the API's recorded writes when applied, and the
//! decision journaled.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};
use time::Duration;

use super::kinds::Budget;
use super::{Kind, id_of, measured, merge};
use crate::api::error::ApiError;
use crate::api::extract::{AdAccountContext, Body};
use crate::api::render::timestamp;
use crate::api::{MoneyIn, entity, rules};
use crate::state::Sandbox;
use crate::world::{Campaign, Id};

/// `ApplyDailyCapRecommendation` / `ApplyTargetCpaRecommendation`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Decision {
    id: String,
    applied_daily_budget: Option<MoneyIn>,
    #[serde(rename = "appliedTargetCPA")]
    applied_target_cpa: Option<MoneyIn>,
    #[serde(rename = "historyId")]
    _history_id: Option<String>,
    promoted_object_id: String,
    promoted_object_type: String,
}

pub(super) async fn decide<K: Kind, const APPLY: bool>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<Decision>,
) -> Result<Json<Value>, ApiError> {
    if b.promoted_object_type != "APPSTORE_APP" {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "promotedObjectType",
            "promotedObjectType must be APPSTORE_APP",
        ));
    }
    let not_live = || {
        ApiError::invalid(
            "INVALID_VALUE",
            "promotedObjectId",
            "promotedObjectId must name a live campaign of this ad account",
        )
    };
    let account = ctx.0;
    let (wanted, named) = (b.id.clone(), b.promoted_object_id.clone());
    let snapshot = s.world.read();
    // The recommendation is derived from days of served metrics: on a snapshot, off the
    // async threads, so the write below holds the world only to write.
    let (cid, suggested, win) = crate::api::crud::off_thread(move || {
        let campaign = named
            .parse::<Id>()
            .ok()
            .and_then(|id| entity::live::<Campaign>(&snapshot, account, id).ok())
            .ok_or_else(not_live)?;
        let (suggested, win) = K::suggest(&snapshot, campaign)
            .filter(|(v, _)| id_of::<K>(campaign.id, *v) == wanted)
            .ok_or_else(|| ApiError::not_found("recommendation", &wanted))?;
        Ok((campaign.id, suggested, win))
    })
    .await?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    let campaign = entity::live::<Campaign>(&w, ctx.0, cid).map_err(|_| not_live())?;
    let (name, adam) = (campaign.name.clone(), campaign.adam_id);
    let mut decisions = s.recommendations.by_id.lock();
    if let Some((state, _, _)) = decisions.get(&b.id) {
        return Err(ApiError::invalid(
            "INVALID_STATE",
            "id",
            format!("recommendation {} is already {state}", b.id),
        ));
    }
    let applied = if APPLY {
        let field = K::APPLIED;
        let (given, other) = if field == Budget::APPLIED {
            (&b.applied_daily_budget, &b.applied_target_cpa)
        } else {
            (&b.applied_target_cpa, &b.applied_daily_budget)
        };
        if other.is_some() {
            return Err(ApiError::invalid(
                "UNKNOWN_FIELD",
                "body",
                format!("this recommendation takes {field}"),
            ));
        }
        let value = match given {
            Some(m) => m.micros(field, currency)?,
            None => suggested,
        };
        let min = if K::TYPE == Budget::TYPE {
            rules::min_daily_budget(currency)
        } else {
            rules::min_bid(currency)
        };
        let value = rules::at_least(value, min, field, currency)?;
        w.begin_txn();
        K::apply(&mut w, ctx.0, cid, value);
        Some(value)
    } else {
        None
    };
    let now = w.now;
    let state = if APPLY { "APPLIED" } else { "DISMISSED" };
    decisions.insert(b.id.clone(), (state, now, applied));
    s.world.journal_decision(&crate::journal::DecisionLine {
        id: b.id.clone(),
        state: state.to_string(),
        time: now,
        applied,
    });
    let made = w.today.midnight().assume_utc();
    let row = json!({
        "recommendationId": b.id, "recommendationType": K::TYPE, "promotedObjectId": adam.to_string(),
        "promotedObjectType": "APPSTORE_APP", "campaignId": cid, "campaignName": name, "state": state,
        "status": "ENABLED", "creationTime": timestamp(made), "modificationTime": timestamp(now),
        "appliedTime": APPLY.then(|| timestamp(now)), "expirationTime": timestamp(made + Duration::days(7)),
        "rank": 1,
    });
    let row = merge(
        merge(row, measured(currency, &win.totals)),
        K::history(currency, suggested, applied),
    );
    Ok(Json(
        json!({ "result": [row], "pagination": { "offset": 0, "pageSize": 1, "totalCount": 1 }, "error": null }),
    ))
}
