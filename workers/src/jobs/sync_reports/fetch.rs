//! The report requests of a slice of days and the rows they answer: each page's rows go
//! into the slice's [`SliceRows`] (out of memory) and its search terms are stored as the
//! page arrives, so a slice of millions of rows is never held whole.

use searchdeck_common::{
    Db,
    jobs::SyncReportsProgress,
    queue::JobError,
    store::synced::{
        entities::{self, SearchTerm},
        metrics::{DayRow, Level},
    },
};
use searchdeck_provider::Client;
use serde_json::{Value, json};
use time::Date;

use super::slice::SliceRows;
use super::{CAMPAIGNS_PER_REQUEST, REPORT_PAGE, day, parse_day, path};
use crate::jobs::sync_account::{job_error, micros};

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

fn counters(m: &Value, row: &mut DayRow) {
    let n = |k: &str| m[k].as_i64().unwrap_or(0);
    row.impressions = n("impressions");
    row.taps = n("taps");
    row.tap_installs = n("tapInstalls");
    row.view_installs = n("viewInstalls");
    row.tap_new_downloads = n("tapNewDownloads");
    row.tap_redownloads = n("tapRedownloads");
    row.view_new_downloads = n("viewNewDownloads");
    row.view_redownloads = n("viewRedownloads");
    row.tap_pre_orders = n("tapPreOrdersPlaced");
    row.view_pre_orders = n("viewPreOrdersPlaced");
    row.spend_micros = micros(&m["localSpend"]).unwrap_or(0);
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
fn row_ids(level: Level, meta: &Value) -> Option<(i64, i64, i64, Option<SearchTerm>)> {
    let int = |v: &Value| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    match level {
        Level::Campaign => Some((int(&meta["id"])?, int(&meta["id"])?, 0, None)),
        Level::AdGroup => Some((
            int(&meta["id"])?,
            int(&meta["campaignId"])?,
            int(&meta["id"])?,
            None,
        )),
        Level::Keyword | Level::Ad => Some((
            int(&meta["id"])?,
            int(&meta["campaignId"])?,
            int(&meta["adGroupId"])?,
            None,
        )),
        Level::SearchTerm => {
            let campaign = int(&meta["campaignId"])?;
            let group = int(&meta["adGroupId"])?;
            let keyword = int(&meta["keyword"]["id"]);
            let source = meta["searchTermSource"].as_str().unwrap_or("TARGETED");
            let text = meta["searchTermText"].as_str().unwrap_or_default();
            let term = SearchTerm::new(campaign, group, keyword, source, text);
            Some((term.id, campaign, group, Some(term)))
        }
    }
}

/// Counters of one report call's run: requests and rows.
pub(super) struct Fetcher<'a> {
    pub client: &'a Client,
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
                    .report(self.org_id, path(level), &request)
                    .await
                    .map_err(job_error)?;
                self.progress.requests += 1;
                let (n, total) = (page.items.len() as u64, page.total);
                for item in &page.items {
                    let Some((entity, campaign, group, term)) = row_ids(level, &item["metadata"])
                    else {
                        return Err(JobError::retryable(anyhow::anyhow!(
                            "{} report row without ids: {}",
                            path(level),
                            item["metadata"]
                        )));
                    };
                    let mut r = DayRow {
                        entity_id: entity,
                        campaign_id: campaign,
                        ad_group_id: group,
                        ..Default::default()
                    };
                    if daily {
                        for m in item["granularMetrics"].as_array().into_iter().flatten() {
                            let Some(d) = m["date"].as_str().and_then(parse_day) else {
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
                        counters(&item["totalMetrics"], &mut r);
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
