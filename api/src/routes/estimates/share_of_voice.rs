//! `POST reports/sov`: share of voice per keyword for an app in a country, the newest week
//! of Apple's impression-share report within the chosen range, read page by page through
//! the connection's Apple Ads client.

use std::collections::HashMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::popularity::normalise;
use serde::Serialize;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;

use super::{KEYWORDS_MAX, country, org_of};
use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery, parse_app_store_id},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiQuery, MultipartForm},
    provider::provider_error,
    state::AppState,
};

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
