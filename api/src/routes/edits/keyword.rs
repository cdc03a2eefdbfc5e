//! `PUT asa/keywords/update/{a}/{b}`: a keyword's quick edits — its bid (`cptBid`) and status —
//! for keyword `keywordId` of ad group `b` of campaign `a`.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{self, synced::edits::KeywordState};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    Changed, Edited, Level, NOTHING_TO_CHANGE, Origin, ProviderBusy, Target, apply, changed, check,
    money, new_status, parse_status, text,
};
use crate::{
    access::{EditRoles, InWorkspace},
    envelope::{self, Envelope, Item},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, ApiQuery},
    route,
    routes::campaigns::{CampaignOfAdGroup, ScopeQuery, pick},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(update))
}

/// The body of `asa/keywords/update/{a}/{b}`: the keyword and at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordEdit {
    /// The keyword (Apple's id), of the ad group in the path.
    keyword_id: Option<i64>,
    /// The new bid (cost per tap; also accepted as `bidAmount`).
    #[serde(alias = "bidAmount")]
    #[schema(value_type = Option<money::MoneyIn>)]
    cpt_bid: Option<Value>,
    /// ENABLED (shown ACTIVE) or PAUSED.
    status: Option<String>,
}

/// Changes a keyword's bid and/or status at Apple Ads, then stores the provider's answer and
/// one change record per changed field. Editors only. The bid is checked against the
/// campaign group's currency; Apple's refusal (e.g. a bid below its minimum) is a 400 on
/// `cptBid` with Apple's message, and nothing is stored.
#[utoipa::path(put, path = "/api/asa/keywords/update/{a}/{b}", tag = "edits",
    params(("a" = i64, Path, description = "Campaign id (Apple's)"),
           ("b" = i64, Path, description = "Ad group id (Apple's), of that campaign"), ScopeQuery),
    request_body = KeywordEdit,
    responses((status = 200, description = "The keyword's values after the edit", body = Envelope<Item<Edited>>),
              (status = 400, description = "Invalid value, or refused by Apple Ads", body = ErrorBody),
              ProviderBusy))]
pub async fn update(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfAdGroup, EditRoles>,
    ApiPath(path): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<KeywordEdit>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let group_id = path
        .1
        .trim()
        .parse::<i64>()
        .map_err(|_| ApiError::not_found("Ad group"))?;
    let g = store::synced_reads::ad_group(&state.db.pool, c.org_key, c.id, group_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Ad group"))?;
    let Some(keyword_id) = body.keyword_id else {
        return Err(ApiError::field("keywordId", crate::domain::REQUIRED));
    };
    let k = store::synced::edits::keyword(&state.db.pool, c.org_key, g.id, keyword_id)
        .await?
        .filter(|k| !k.deleted)
        .ok_or_else(|| ApiError::not_found("Keyword"))?;
    let currency = c.currency.as_deref();
    let mut errors = Vec::new();
    if body.cpt_bid.is_none() && body.status.is_none() {
        errors.push(FieldError::new("cptBid", NOTHING_TO_CHANGE));
    }
    let bid = body.cpt_bid.as_ref().and_then(|v| {
        money::parse("cptBid", "Bid", v, currency)
            .map_err(|e| errors.push(e))
            .ok()
    });
    let status = body
        .status
        .as_deref()
        .and_then(|s| parse_status("status", s).map_err(|e| errors.push(e)).ok());
    check(errors)?;

    let mut request = Map::new();
    if let Some(b) = bid.filter(|b| Some(*b) != k.bid_micros) {
        request.insert("bid".into(), money::wire(b, currency));
    }
    if let Some(s) = new_status(status, &k.status) {
        request.insert("status".into(), json!(s));
    }
    let before = KeywordState {
        status: k.status.clone(),
        display_status: k.display_status.clone(),
        bid_micros: k.bid_micros,
        modification_time: None,
    };
    let origin = Origin::of(campaign.caller.user(), &c);
    let target = Target {
        level: "KEYWORD",
        id: k.id,
        campaign_id: c.id,
        ad_group_id: Some(g.id),
        name: &k.text,
        campaign_name: &c.name,
    };
    let edited = apply(&state, origin, target, before, request).await?;
    Ok(envelope::item(edited))
}

impl Level for KeywordState {
    const ENTITY: &'static str = "keywords";
    const WHAT: &'static str = "Keyword";
    const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("bid", "cptBid"),
        ("bid.amount", "cptBid"),
        ("status", "status"),
    ];
    const MONEY: &'static [&'static str] = &["cptBid"];

    fn after(&self, answer: &Value) -> Self {
        KeywordState {
            status: text(&answer["status"]).unwrap_or_else(|| self.status.clone()),
            display_status: text(&answer["displayStatus"]),
            bid_micros: money::wire_micros(&answer["bid"]),
            modification_time: text(&answer["modificationTime"]),
        }
    }

    fn changes(&self, now: &Self) -> Vec<Changed> {
        changed([
            (
                "cptBid",
                money::text(self.bid_micros),
                money::text(now.bid_micros),
            ),
            (
                "status",
                Some(self.status.clone()),
                Some(now.status.clone()),
            ),
        ])
    }

    fn values(&self, currency: Option<&str>) -> Value {
        json!({ "cptBid": money::answer(self.bid_micros, currency), "status": self.status })
    }

    async fn store(
        &self,
        ex: &mut sqlx::AnyConnection,
        org_key: i64,
        id: i64,
    ) -> Result<bool, sqlx::Error> {
        store::synced::edits::set_keyword(ex, org_key, id, self).await
    }
}
