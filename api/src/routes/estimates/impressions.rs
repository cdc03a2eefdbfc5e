//! `POST reports/asa/getEstimatedImpressions`: the keywords, countries and match type
//! checked, the campaign group's keyword reports of the last [`ESTIMATE_DAYS`] days read
//! through the report engine with the keywords' popularity, and one [`estimate`] per
//! keyword in the order sent.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    report::{self, Cancel, Context, DateRange, Level, Query},
    store::{
        self,
        popularity::{GET_MAX, normalise},
        report_entities::EntityKind,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::{COUNTRIES_MAX, ESTIMATE_DAYS, KEYWORDS_MAX, KeywordData, country, estimate, org_of};
use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// The body of `reports/asa/getEstimatedImpressions`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct EstimateBody {
    /// Keyword texts (1 to 1,000), answered in this order, normalised as keyword lists
    /// (spec §5).
    #[schema(required = true, min_items = 1, max_items = 1000)]
    pub keywords: Option<Vec<String>>,
    /// Countries or regions Apple Ads serves (1 to 20).
    #[schema(required = true, schema_with = country_list)]
    pub countries: Option<Vec<String>>,
    /// Match type the keywords would be bid on.
    #[serde(rename = "type")]
    #[schema(required = true, schema_with = match_type)]
    pub match_type: Option<String>,
}

fn country_list() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(crate::schemas::country())
        .min_items(Some(1))
        .max_items(Some(COUNTRIES_MAX))
        .into()
}

fn match_type() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["EXACT", "BROAD"]))
        .description(Some("EXACT or BROAD"))
        .into()
}

/// One keyword's estimate.
#[derive(Debug, Serialize, ToSchema)]
pub struct Estimate {
    /// The keyword, normalised.
    pub keyword: String,
    /// Estimated daily impressions (0 when there is nothing to estimate from).
    pub impressions: i64,
}

/// Estimated daily impressions per keyword for the campaign group (`accountId`, `orgId`),
/// in the keywords' order: from its own synced keyword reports of the last 30 days and
/// Apple's search popularity (see [`estimate`]); 0 where there is nothing to estimate from.
#[utoipa::path(post, path = "/api/reports/asa/getEstimatedImpressions", tag = "suggester",
    params(ScopeQuery), request_body = EstimateBody,
    responses((status = 200, description = "One estimate per keyword", body = Envelope<Items<Estimate>>),
              (status = 400, description = "Invalid keywords, countries or type (errors name the field)", body = ErrorBody),
              (status = 404, description = "The account or campaign group is not the caller's", body = ErrorBody),
              (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn estimated_impressions(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<EstimateBody>,
) -> ApiResult<impl IntoResponse> {
    let mut errors = Vec::new();
    let keywords = body.keywords.unwrap_or_default();
    if keywords.is_empty() {
        errors.push(FieldError::new("keywords", REQUIRED));
    } else if keywords.len() > KEYWORDS_MAX {
        errors.push(FieldError::new(
            "keywords",
            format!("At most {KEYWORDS_MAX} keywords per request"),
        ));
    }
    let raw_countries = body.countries.unwrap_or_default();
    let mut wanted = Vec::new();
    if raw_countries.is_empty() {
        errors.push(FieldError::new("countries", REQUIRED));
    } else if raw_countries.len() > COUNTRIES_MAX {
        errors.push(FieldError::new(
            "countries",
            format!("At most {COUNTRIES_MAX} countries or regions"),
        ));
    }
    for (i, c) in raw_countries.iter().enumerate().take(COUNTRIES_MAX) {
        match country(c) {
            Some(code) if !wanted.contains(&code) => wanted.push(code),
            Some(_) => {}
            None => errors.push(FieldError::new(
                format!("countries.{i}"),
                "Apple Ads does not serve this country or region",
            )),
        }
    }
    let match_type = match body.match_type.as_deref().map(str::trim) {
        Some(t @ ("EXACT" | "BROAD")) => t.to_string(),
        None | Some("") => {
            errors.push(FieldError::new("type", REQUIRED));
            String::new()
        }
        Some(_) => {
            errors.push(FieldError::new("type", "Must be EXACT or BROAD"));
            String::new()
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let row = account.item.0;
    let org = org_of(&state, &row, &scope).await?;
    let texts: Vec<String> = keywords.iter().map(|k| normalise(k)).collect();
    let Some(sync) =
        store::report_entities::sync_org_of(&state.db.pool, &row.id, org.org_id).await?
    else {
        // Not synced yet: no own data.
        return Ok(answer(texts, vec![]));
    };
    let today = OffsetDateTime::now_utc().date();
    let range = DateRange {
        from: today - Duration::days(ESTIMATE_DAYS),
        to: today - Duration::days(1),
    };
    let ctx = Context {
        workspace_id: account.caller.workspace_id.clone(),
        account_id: row.id.clone(),
        org: Some(sync.clone()),
        columns: state
            .engines
            .plan(&state.db, &account.caller.workspace_id)
            .await?
            .columns(),
    };
    let q = Query::totals(Level::Keywords, range, Default::default(), Vec::new());
    let totals =
        report::totals(&state.db, &state.engines.reports, &ctx, &q, &Cancel::new()).await?;
    let impressions: HashMap<i64, i64> = totals
        .iter()
        .filter_map(|r| Some((r.id.parse().ok()?, r.counters.impressions())))
        .collect();
    let campaigns = store::report_entities::campaign_apps(&state.db.pool, sync.org_key).await?;
    let entities = store::report_entities::entities(
        &state.db.pool,
        EntityKind::Keyword,
        sync.org_key,
        Default::default(),
        None,
    )
    .await?;
    let mut data: Vec<KeywordData> = entities
        .iter()
        .filter_map(|e| {
            let countries: Vec<String> = campaigns
                .get(&e.campaign_id)?
                .0
                .iter()
                .map(|c| c.to_uppercase())
                .collect();
            Some(KeywordData {
                text: normalise(&e.name),
                match_type: e
                    .columns
                    .get("matchType")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                countries,
                impressions: impressions.get(&e.id).copied().unwrap_or(0),
                popularity: None,
            })
        })
        .collect();
    // Popularity (best of the requested storefronts) of the group's texts and the asked ones.
    let mut all_texts: Vec<String> = data
        .iter()
        .filter(|k| k.impressions > 0)
        .map(|k| k.text.clone())
        .chain(texts.iter().cloned())
        .collect();
    all_texts.sort_unstable();
    all_texts.dedup();
    let mut popularity: HashMap<String, i64> = HashMap::new();
    for chunk in all_texts.chunks(GET_MAX) {
        for p in store::popularity::get_many(&state.db.pool, chunk, &wanted).await? {
            if let Some(v) = p.popularity {
                let best = popularity.entry(p.text).or_insert(v);
                *best = (*best).max(v);
            }
        }
    }
    for k in &mut data {
        k.popularity = popularity.get(&k.text).copied();
    }
    let values = estimate(
        &texts,
        &wanted,
        &match_type,
        &data,
        &popularity,
        ESTIMATE_DAYS,
    );
    Ok(answer(texts, values))
}

fn answer(texts: Vec<String>, values: Vec<i64>) -> axum::Json<Envelope<Items<Estimate>>> {
    envelope::items(
        texts
            .into_iter()
            .enumerate()
            .map(|(i, keyword)| Estimate {
                impressions: values.get(i).copied().unwrap_or(0),
                keyword,
            })
            .collect(),
    )
}
