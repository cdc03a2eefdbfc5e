//! The keyword suggester's estimates (docs/api/suggester.md, "Estimates"):
//! `reports/asa/getEstimatedImpressions` (daily impressions a keyword may get, estimated
//! from the campaign group's own synced reports through the report engine) and
//! `reports/sov` (share of voice per keyword: Apple's impression-share report, as the
//! provider gives it). Both read for a connection (`accountId`) and campaign group
//! (`orgId`, default its first one in use); any member may call them (reads by POST).

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    countries,
    report::{self, Cancel, Context, DateRange, Level, Query},
    store::{
        self,
        accounts::{AccountRow, OrgRow},
        popularity::{GET_MAX, normalise},
        report_entities::EntityKind,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery, parse_app_store_id},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery, MultipartForm},
    provider::provider_error,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(estimated_impressions))
        .routes(route!(share_of_voice))
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

/// One synced keyword's last 30 days, as the estimate reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordData {
    /// Normalised text.
    pub text: String,
    /// EXACT or BROAD.
    pub match_type: String,
    /// Its campaign's storefronts (upper case).
    pub countries: Vec<String>,
    /// Impressions over the days read.
    pub impressions: i64,
    /// Apple's search popularity of the text (best of the requested storefronts).
    pub popularity: Option<i64>,
}

/// Median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The popularity decile (0–9) of a popularity 1–100.
fn decile(popularity: i64) -> usize {
    ((popularity.clamp(1, 100) - 1) / 10) as usize
}

/// Estimated daily impressions of each of `keywords` (normalised) bid on as `match_type`
/// in `countries`, from the campaign group's own keywords `data` over `days` days, and the
/// keywords' popularity `popularity` (by text):
///
/// - a keyword the group bids on with that match type in a requested country, with
///   impressions: its own average daily impressions (all such keywords summed);
/// - otherwise the group's curve: per popularity decile, the median daily impressions of
///   its EXACT keywords with impressions and a known popularity in the requested countries
///   (of all its keywords when no EXACT one has data), read at the keyword's decile or the
///   nearest decile with data; BROAD multiplies it by the group's broad/exact ratio (mean
///   daily impressions of its BROAD keywords with data over its EXACT ones; 1.0 when one
///   side has none);
/// - 0 when the keyword's popularity is unknown or the group has no data.
pub fn estimate(
    keywords: &[String],
    countries: &[String],
    match_type: &str,
    data: &[KeywordData],
    popularity: &HashMap<String, i64>,
    days: i64,
) -> Vec<i64> {
    let days = days.max(1) as f64;
    let in_scope: Vec<&KeywordData> = data
        .iter()
        .filter(|k| k.impressions > 0 && k.countries.iter().any(|c| countries.contains(c)))
        .collect();
    let mean = |kind: &str| {
        let rows: Vec<f64> = in_scope
            .iter()
            .filter(|k| k.match_type == kind)
            .map(|k| k.impressions as f64 / days)
            .collect();
        (!rows.is_empty()).then(|| rows.iter().sum::<f64>() / rows.len() as f64)
    };
    let ratio = match (mean("BROAD"), mean("EXACT")) {
        (Some(b), Some(e)) if e > 0.0 => b / e,
        _ => 1.0,
    };
    let exact_only = in_scope
        .iter()
        .any(|k| k.match_type == "EXACT" && k.popularity.is_some());
    let mut by_decile: [Vec<f64>; 10] = Default::default();
    for k in &in_scope {
        if exact_only && k.match_type != "EXACT" {
            continue;
        }
        if let Some(p) = k.popularity {
            by_decile[decile(p)].push(k.impressions as f64 / days);
        }
    }
    let curve: Vec<Option<f64>> = by_decile
        .iter_mut()
        .map(|v| (!v.is_empty()).then(|| median(v)))
        .collect();
    keywords
        .iter()
        .map(|text| {
            let own: i64 = in_scope
                .iter()
                .filter(|k| &k.text == text && k.match_type == match_type)
                .map(|k| k.impressions)
                .sum();
            if own > 0 {
                return (own as f64 / days).round() as i64;
            }
            let Some(p) = popularity.get(text) else {
                return 0;
            };
            let d = decile(*p) as i64;
            let nearest = (0..10)
                .flat_map(|step| [d - step, d + step])
                .filter(|i| (0..10).contains(i))
                .find_map(|i| curve[i as usize]);
            let Some(daily) = nearest else {
                return 0;
            };
            let factor = if match_type == "BROAD" { ratio } else { 1.0 };
            (daily * factor).round().max(0.0) as i64
        })
        .collect()
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

/// The fields of `reports/sov` (read from the multipart body; this type documents them).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct SovForm {
    /// The app (App Store id) of the campaign group.
    #[schema(pattern = "^[0-9]{1,18}$")]
    pub adam_id: String,
    /// Country or region (ISO code Apple Ads serves).
    #[schema(min_length = 2, max_length = 2)]
    pub country: String,
    /// Keywords, one per line (1 to 1,000; parsed as keyword lists, spec §5).
    #[schema(min_length = 1)]
    pub keywords: String,
    /// LAST_WEEK (default), LAST_2_WEEKS or LAST_4_WEEKS.
    pub date_range: Option<String>,
}

/// One keyword's share of voice.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Share {
    pub keyword: String,
    /// Lower bound of the app's impression share (0–1).
    pub low_impression_share: Option<f64>,
    /// Upper bound (0–1).
    pub high_impression_share: Option<f64>,
    /// The app's rank by impression share among the apps shown for the term (1 = highest).
    pub rank: Option<i64>,
}

/// Rows per page of an impression-share answer (Apple's largest).
const SOV_PAGE: u64 = 5000;

/// Share of voice per keyword for an app in a country: the newest week's row of Apple's
/// impression-share report (v1 `POST /insights/apps/impression-share/query`, weekly, first
/// ad slot) within the chosen range, as the provider gives it; null where Apple has no row
/// for the keyword (fewer than 10 impressions, or not shown).
#[utoipa::path(post, path = "/api/reports/sov", tag = "suggester", params(ScopeQuery),
    request_body(content = SovForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "One share per keyword", body = Envelope<Items<Share>>),
              (status = 400, description = "Invalid fields, or Apple Ads refused (e.g. not an app of the campaign group)", body = ErrorBody),
              (status = 404, description = "The account or campaign group is not the caller's", body = ErrorBody),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn share_of_voice(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(scope): ApiQuery<ScopeQuery>,
    MultipartForm(form): MultipartForm,
) -> ApiResult<impl IntoResponse> {
    let mut errors = Vec::new();
    let field = |name: &str| form.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    let adam_id = match field("adamId") {
        None => {
            errors.push(FieldError::new("adamId", REQUIRED));
            0
        }
        Some(v) => parse_app_store_id(v).unwrap_or_else(|| {
            errors.push(FieldError::new("adamId", "Not an App Store app id"));
            0
        }),
    };
    let code = match field("country") {
        None => {
            errors.push(FieldError::new("country", REQUIRED));
            String::new()
        }
        Some(c) => country(c).unwrap_or_else(|| {
            errors.push(FieldError::new(
                "country",
                "Apple Ads does not serve this country or region",
            ));
            String::new()
        }),
    };
    let mut keywords: Vec<String> = Vec::new();
    for line in field("keywords").unwrap_or_default().lines() {
        let k = normalise(line);
        if !k.is_empty() && !keywords.contains(&k) {
            keywords.push(k);
        }
    }
    if keywords.is_empty() {
        errors.push(FieldError::new("keywords", REQUIRED));
    } else if keywords.len() > KEYWORDS_MAX {
        errors.push(FieldError::new(
            "keywords",
            format!("At most {KEYWORDS_MAX} keywords per request"),
        ));
    }
    let weeks = match field("dateRange") {
        None | Some("LAST_WEEK") => 1,
        Some("LAST_2_WEEKS") => 2,
        Some("LAST_4_WEEKS") => 4,
        Some(_) => {
            errors.push(FieldError::new(
                "dateRange",
                "Must be LAST_WEEK, LAST_2_WEEKS or LAST_4_WEEKS",
            ));
            1
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let row = account.item.0;
    let org = org_of(&state, &row, &scope).await?;
    let client = state.provider.client_of(&row)?;
    let today = OffsetDateTime::now_utc().date();
    let start = today - Duration::days(7 * weeks);
    // Per keyword: the row of its newest week.
    let mut newest: HashMap<String, (String, Value)> = HashMap::new();
    let mut offset = 0u64;
    loop {
        let request = json!({
            "timeRange": { "start": start.to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT" },
            "filters": [
                { "field": "promotedObjectId", "operator": "EQUALS", "value": [adam_id.to_string()] },
                { "field": "countryOrRegion", "operator": "EQUALS", "value": [code] },
                { "field": "searchTerm", "operator": "IN", "value": keywords },
            ],
            "pagination": { "offset": offset, "pageSize": SOV_PAGE },
        });
        let page = client
            .impression_share(org.org_id, &request)
            .await
            .map_err(provider_error)?;
        let got = page.items.len() as u64;
        for r in page.items {
            let (Some(term), Some(week)) = (r["searchTerm"].as_str(), r["week"].as_str()) else {
                continue;
            };
            let term = normalise(term);
            if newest.get(&term).is_none_or(|(w, _)| w.as_str() < week) {
                newest.insert(term, (week.to_string(), r));
            }
        }
        offset += got;
        if got == 0 || page.total.map_or(got < SOV_PAGE, |t| offset >= t) {
            break;
        }
    }
    let items = keywords
        .into_iter()
        .map(|keyword| {
            let row = newest.get(&keyword).map(|(_, r)| r);
            Share {
                low_impression_share: row.and_then(|r| r["lowImpressionShare"].as_f64()),
                high_impression_share: row.and_then(|r| r["highImpressionShare"].as_f64()),
                rank: row.and_then(|r| r["rank"].as_i64()),
                keyword,
            }
        })
        .collect();
    Ok(envelope::items(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(text: &str, kind: &str, impressions: i64, popularity: Option<i64>) -> KeywordData {
        KeywordData {
            text: text.into(),
            match_type: kind.into(),
            countries: vec!["US".into()],
            impressions,
            popularity,
        }
    }

    #[test]
    fn estimates_use_own_data_then_the_popularity_curve() {
        let data = vec![
            kw("photo", "EXACT", 300, Some(55)),
            kw("editor", "EXACT", 900, Some(58)),
            kw("filters", "EXACT", 600, Some(52)),
            kw("camera", "EXACT", 3000, Some(91)),
            kw("photo", "BROAD", 1200, Some(55)),
            kw("elsewhere", "EXACT", 9000, Some(55)),
        ];
        let mut data = data;
        data[5].countries = vec!["FR".into()];
        let pop: HashMap<String, i64> = [
            ("photo".to_string(), 55),
            ("collage".to_string(), 51),
            ("selfie".to_string(), 95),
            ("retro".to_string(), 75),
        ]
        .into();
        let us = vec!["US".to_string()];
        let asked: Vec<String> = ["photo", "collage", "selfie", "retro", "unknown"]
            .map(String::from)
            .into();
        // Own: 300 / 30 = 10. Decile 5 median of 10, 30, 20 = 20; decile 9: 100; 75 is
        // decile 7, nearest with data 5 or 9 (5 first): 20. Unknown popularity: 0.
        assert_eq!(
            estimate(&asked, &us, "EXACT", &data, &pop, 30),
            [10, 20, 100, 20, 0]
        );
        // BROAD: own broad 1200 / 30 = 40; the curve times broad/exact = 40 / 40 = 1.
        assert_eq!(
            estimate(&asked, &us, "BROAD", &data, &pop, 30),
            [40, 20, 100, 20, 0]
        );
        // Another storefront's data does not count; none at all: 0.
        assert_eq!(
            estimate(&asked, &["DE".to_string()], "EXACT", &data, &pop, 30),
            [0, 0, 0, 0, 0]
        );
        // France: only `elsewhere` (decile 5, 300 a day).
        assert_eq!(
            estimate(&asked, &["FR".to_string()], "EXACT", &data, &pop, 30),
            [300, 300, 300, 300, 0]
        );
    }
}
