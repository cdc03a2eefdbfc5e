//! The report requests of a slice of days and the rows they answer: each page is decoded
//! straight into [`ReportRow`]s (the ids and counters only, no JSON values), its rows go
//! into the slice's [`SliceRows`] (out of memory) and its search terms are stored as the
//! page arrives, so neither a page's JSON nor a slice of millions of rows is held whole.

use searchdeck_common::{
    Db,
    jobs::SyncReportsProgress,
    queue::JobError,
    store::synced::{
        entities::{self, SearchTerm},
        metrics::{DayRow, Level},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt};
use serde::{Deserialize, de::IgnoredAny};
use serde_json::{Number, Value, json};
use time::Date;

use super::slice::SliceRows;
use super::{CAMPAIGNS_PER_REQUEST, REPORT_PAGE, day, parse_day, path};
use crate::wire::{job_error, micros};

/// The metrics requested (and stored) of every row.
const FIELDS: [&str; 11] = [
    "impressions",
    "taps",
    "tapInstalls",
    "viewInstalls",
    "tapNewDownloads",
    "tapRedownloads",
    "viewNewDownloads",
    "viewRedownloads",
    "tapPreOrdersPlaced",
    "viewPreOrdersPlaced",
    "localSpend",
];

/// One report row as the sync reads it: every other field of the answer is skipped.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct ReportRow {
    metadata: Metadata,
    granular_metrics: Option<Vec<Metrics>>,
    total_metrics: Option<Metrics>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Metadata {
    id: Option<IntOrText>,
    campaign_id: Option<IntOrText>,
    ad_group_id: Option<IntOrText>,
    /// The targeted keyword of a search term (an object with its `id`), or null.
    keyword: Option<KeywordField>,
    search_term_source: Option<String>,
    search_term_text: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum KeywordField {
    Ref {
        id: Option<IntOrText>,
    },
    /// Anything else (its text, say) names no keyword id.
    Other(IgnoredAny),
}

/// An id as a number or as its text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum IntOrText {
    Int(i64),
    Text(String),
}

impl IntOrText {
    fn get(v: &Option<IntOrText>) -> Option<i64> {
        match v.as_ref()? {
            IntOrText::Int(n) => Some(*n),
            IntOrText::Text(s) => s.parse().ok(),
        }
    }
}

/// Counters of a row's total or of one of its days; a count that is not an integer
/// counts as 0, as does a missing one.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Metrics {
    date: Option<String>,
    impressions: Option<Number>,
    taps: Option<Number>,
    tap_installs: Option<Number>,
    view_installs: Option<Number>,
    tap_new_downloads: Option<Number>,
    tap_redownloads: Option<Number>,
    view_new_downloads: Option<Number>,
    view_redownloads: Option<Number>,
    tap_pre_orders_placed: Option<Number>,
    view_pre_orders_placed: Option<Number>,
    local_spend: Option<Money>,
}

/// `{ "amount": "1.23", "currency": "USD" }`, or the amount alone.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Money {
    Object { amount: Value },
    Amount(Value),
}

fn counters(m: &Metrics, row: &mut DayRow) {
    let n = |v: &Option<Number>| v.as_ref().and_then(Number::as_i64).unwrap_or(0);
    row.impressions = n(&m.impressions);
    row.taps = n(&m.taps);
    row.tap_installs = n(&m.tap_installs);
    row.view_installs = n(&m.view_installs);
    row.tap_new_downloads = n(&m.tap_new_downloads);
    row.tap_redownloads = n(&m.tap_redownloads);
    row.view_new_downloads = n(&m.view_new_downloads);
    row.view_redownloads = n(&m.view_redownloads);
    row.tap_pre_orders = n(&m.tap_pre_orders_placed);
    row.view_pre_orders = n(&m.view_pre_orders_placed);
    row.spend_micros = m
        .local_spend
        .as_ref()
        .and_then(|s| match s {
            Money::Object { amount } | Money::Amount(amount) => micros(amount),
        })
        .unwrap_or(0);
}

fn is_zero(r: &DayRow) -> bool {
    r.impressions == 0
        && r.taps == 0
        && r.tap_installs == 0
        && r.view_installs == 0
        && r.tap_new_downloads == 0
        && r.tap_redownloads == 0
        && r.view_new_downloads == 0
        && r.view_redownloads == 0
        && r.tap_pre_orders == 0
        && r.view_pre_orders == 0
        && r.spend_micros == 0
}

/// The ids of a report row: (entity id, campaign id, ad group id), and its search term.
fn row_ids(level: Level, meta: &Metadata) -> Option<(i64, i64, i64, Option<SearchTerm>)> {
    let int = IntOrText::get;
    match level {
        Level::Campaign => Some((int(&meta.id)?, int(&meta.id)?, 0, None)),
        Level::AdGroup => Some((
            int(&meta.id)?,
            int(&meta.campaign_id)?,
            int(&meta.id)?,
            None,
        )),
        Level::Keyword | Level::Ad => Some((
            int(&meta.id)?,
            int(&meta.campaign_id)?,
            int(&meta.ad_group_id)?,
            None,
        )),
        Level::SearchTerm => {
            let campaign = int(&meta.campaign_id)?;
            let group = int(&meta.ad_group_id)?;
            let keyword = match &meta.keyword {
                Some(KeywordField::Ref { id }) => int(id),
                _ => None,
            };
            let source = meta.search_term_source.as_deref().unwrap_or("TARGETED");
            let text = meta.search_term_text.as_deref().unwrap_or_default();
            let term = SearchTerm::new(campaign, group, keyword, source, text);
            Some((term.id, campaign, group, Some(term)))
        }
    }
}

/// Counters of one report call's run: requests and rows.
pub(super) struct Fetcher<'a> {
    pub client: &'a dyn AppleAds,
    pub db: &'a Db,
    pub org_id: i64,
    pub org_key: i64,
    pub campaigns: &'a [i64],
    pub progress: SyncReportsProgress,
}

impl Fetcher<'_> {
    /// Every row of `level` over `from..=to`: DAILY rows when `daily`, else each row's
    /// totals as the metrics of `from` (a one-day range). The rows are returned in a
    /// [`SliceRows`] for [`super::slice::store_slice`]; the search terms are stored page
    /// by page (known terms are left as they are, so a page fetched again adds nothing).
    pub async fn fetch(
        &mut self,
        level: Level,
        from: Date,
        to: Date,
        daily: bool,
    ) -> Result<SliceRows, JobError> {
        let mut rows = SliceRows::new(from, to);
        let mut terms = Vec::new();
        let chunks: Vec<Option<&[i64]>> = if level == Level::Campaign {
            vec![None]
        } else {
            self.campaigns
                .chunks(CAMPAIGNS_PER_REQUEST)
                .map(Some)
                .collect()
        };
        for chunk in chunks {
            let mut offset = 0u64;
            loop {
                let mut time_range = json!({
                    "start": day(from), "end": day(to), "timeZone": "ORTZ",
                });
                if daily {
                    time_range["granularity"] = json!("DAILY");
                }
                let mut request = json!({
                    "timeRange": time_range,
                    "fields": FIELDS,
                    "sorting": [{ "field": "id", "order": "ASC" }],
                    "pagination": { "offset": offset, "pageSize": REPORT_PAGE },
                });
                if level == Level::SearchTerm {
                    // Search-term rows have no id; they sort by text.
                    request["sorting"] = json!([{ "field": "searchTermText", "order": "ASC" }]);
                }
                if let Some(ids) = chunk {
                    request["filters"] =
                        json!([{ "field": "campaignId", "operator": "IN", "value": ids }]);
                }
                let page = self
                    .client
                    .report_as::<ReportRow>(self.org_id, path(level), &request)
                    .await
                    .map_err(job_error)?;
                self.progress.requests += 1;
                let (n, total) = (page.items.len() as u64, page.total);
                for item in &page.items {
                    let Some((entity, campaign, group, term)) = row_ids(level, &item.metadata)
                    else {
                        return Err(JobError::retryable(anyhow::anyhow!(
                            "{} report row without ids: {:?}",
                            path(level),
                            item.metadata
                        )));
                    };
                    let mut r = DayRow {
                        entity_id: entity,
                        campaign_id: campaign,
                        ad_group_id: group,
                        ..Default::default()
                    };
                    if daily {
                        for m in item.granular_metrics.iter().flatten() {
                            let Some(d) = m.date.as_deref().and_then(parse_day) else {
                                continue;
                            };
                            if d < from || d > to {
                                continue;
                            }
                            counters(m, &mut r);
                            if !is_zero(&r) {
                                rows.add(d, &r);
                            }
                        }
                    } else {
                        counters(
                            item.total_metrics.as_ref().unwrap_or(&Metrics::default()),
                            &mut r,
                        );
                        if !is_zero(&r) {
                            rows.add(from, &r);
                        }
                    }
                    if let Some(t) = term {
                        terms.push(t);
                    }
                }
                drop(page);
                rows.end_page().await?;
                if !terms.is_empty() {
                    let mut conn = self.db.pool.acquire().await?;
                    entities::upsert_search_terms(&mut conn, self.org_key, &terms).await?;
                    terms.clear();
                }
                offset += n;
                let more = match total {
                    Some(total) => offset < total,
                    None => n == REPORT_PAGE,
                };
                if !more || n == 0 {
                    break;
                }
            }
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_decode_leniently_into_ids_and_counters() {
        let row: ReportRow = serde_json::from_value(json!({
            "metadata": {
                "campaignId": "11", "adGroupId": 22, "keyword": { "id": 33, "text": "x" },
                "searchTermText": "cloud", "searchTermSource": "TARGETED", "other": [1, 2]
            },
            "granularMetrics": [
                { "date": "2026-03-01", "impressions": 5, "taps": 2.5,
                  "localSpend": { "amount": "1.25", "currency": "USD" } },
                { "date": "2026-03-02", "tapInstalls": 1, "localSpend": "0.5" }
            ],
            "insights": { "bidRecommendation": {} }
        }))
        .unwrap();
        let (id, campaign, group, term) = row_ids(Level::SearchTerm, &row.metadata).unwrap();
        let term = term.unwrap();
        assert_eq!((campaign, group, term.keyword_id), (11, 22, Some(33)));
        assert_eq!(id, term.id);
        let metrics = row.granular_metrics.unwrap();
        let mut r = DayRow::default();
        counters(&metrics[0], &mut r);
        assert_eq!((r.impressions, r.taps, r.spend_micros), (5, 0, 1_250_000));
        counters(&metrics[1], &mut r);
        assert_eq!(
            (r.impressions, r.tap_installs, r.spend_micros),
            (0, 1, 500_000)
        );
        // A keyword given as its text names no keyword id.
        let meta: Metadata = serde_json::from_value(json!({
            "campaignId": 1, "adGroupId": 2, "keyword": "cloud", "searchTermText": "cloud"
        }))
        .unwrap();
        let term = row_ids(Level::SearchTerm, &meta).unwrap().3.unwrap();
        assert_eq!(term.keyword_id, None);
        assert!(row_ids(Level::Keyword, &meta).is_none());
    }
}
