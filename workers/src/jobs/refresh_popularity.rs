//! `refresh-popularity`: the weekly refresh of Apple's search popularity
//! (`store::popularity`). For every synced campaign group, the texts of its keywords and
//! search terms, per storefront of their campaigns, whose popularity is missing or older
//! than 7 days are asked from Apple Ads' v1 search-term popularity (`POST
//! /insights/apps/search-term-popularity/query`, [`BATCH`] texts a call, the latest week)
//! through that group's connection, and stored — with no popularity when Apple published
//! none, so a text without searches is not asked again before it is stale. The popularity is
//! Apple's public figure, shared by every workspace: a text another group refreshed this week
//! is skipped. Safe to run again: it only ever asks for what is still stale.
//!
//! [`fetch`] is the batched call itself, for the keyword collector too.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use searchdeck_common::{
    ids,
    jobs::RefreshPopularity,
    queue::JobError,
    store::{
        self,
        popularity::{self, FRESH_MS, GET_MAX, PUT_MAX, Popularity},
    },
};
use searchdeck_provider::{AppleAds, ProviderError};
use serde_json::json;

use crate::wire::job_error;
use crate::{Done, Handler, JobContext};

/// Texts per search-term popularity call.
pub const BATCH: usize = 100;

/// Rows per page of a popularity answer (Apple's largest).
const PAGE: usize = 5000;

/// Apple's search popularity (1–100) of `texts` ([`popularity::normalise`]d, any number:
/// asked [`BATCH`] at a time) in storefront `country`, over the latest published week,
/// through campaign group `org_id`'s connection. Every text is answered: those Apple
/// published nothing for have `popularity: None`. Stamped `now` (ms).
pub async fn fetch(
    client: &dyn AppleAds,
    org_id: i64,
    country: &str,
    texts: &[String],
    now: i64,
) -> Result<Vec<Popularity>, ProviderError> {
    let today = time::OffsetDateTime::from_unix_timestamp(now / 1000)
        .map(|t| t.date())
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc().date());
    // Two weeks back: the latest complete week whatever the weekday.
    let start = today - time::Duration::days(14);
    let mut out = Vec::with_capacity(texts.len());
    for batch in texts.chunks(BATCH) {
        // Per text: (week, popularity) of its newest row (a text ranked in several genres
        // has one row per genre, all with the same overall popularity).
        let mut newest: HashMap<String, (String, Option<i64>)> = HashMap::new();
        let mut offset = 0;
        loop {
            let request = json!({
                "timeRange": { "start": start.to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT" },
                "filters": [
                    { "field": "countryOrRegion", "operator": "EQUALS", "value": [country] },
                    { "field": "searchTerm", "operator": "IN", "value": batch },
                ],
                "pagination": { "offset": offset, "pageSize": PAGE },
            });
            let page = client.search_term_popularity(org_id, &request).await?;
            let got = page.items.len();
            for row in page.items {
                let (Some(term), Some(week)) = (row["searchTerm"].as_str(), row["week"].as_str())
                else {
                    continue;
                };
                let value = row["searchPopularity1to100"].as_i64();
                let term = popularity::normalise(term);
                if newest.get(&term).is_none_or(|(w, _)| w.as_str() < week) {
                    newest.insert(term, (week.to_string(), value));
                }
            }
            offset += got;
            let more = page.total.map_or(got == PAGE, |t| (offset as u64) < t);
            if got == 0 || !more {
                break;
            }
        }
        out.extend(batch.iter().map(|t| Popularity {
            text: t.clone(),
            country: country.to_string(),
            popularity: newest.get(t).and_then(|(_, p)| *p),
            fetched_at: now,
        }));
    }
    Ok(out)
}

/// Texts (normalised) by storefront from synced rows `(text, countries JSON)`.
fn by_country(rows: Vec<(String, Option<String>)>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (text, countries) in rows {
        let text = popularity::normalise(&text);
        if text.is_empty() {
            continue;
        }
        let countries: Vec<String> = countries
            .and_then(|c| serde_json::from_str(&c).ok())
            .unwrap_or_default();
        for c in countries {
            out.entry(c.to_uppercase())
                .or_default()
                .insert(text.clone());
        }
    }
    out
}

impl Handler for RefreshPopularity {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let db = &ctx.runtime.db;
        let (mut asked, mut stored, mut groups) = (0usize, 0usize, 0usize);
        for (org_key, account_id, org_id) in popularity::synced_orgs(&db.pool).await? {
            ctx.check_cancelled()?;
            let wanted = by_country(popularity::synced_texts(&db.pool, org_key).await?);
            if wanted.is_empty() {
                continue;
            }
            // A connection removed meanwhile has nothing to refresh.
            let Some(account) = store::accounts::by_id(&db.pool, &account_id).await? else {
                continue;
            };
            let client = ctx.runtime.provider_for(&account)?;
            groups += 1;
            for (country, texts) in wanted {
                let texts: Vec<String> = texts.into_iter().collect();
                let since = ids::now_ms() - FRESH_MS;
                let mut stale = Vec::new();
                for chunk in texts.chunks(GET_MAX) {
                    let fresh: BTreeSet<String> =
                        popularity::fresh(&db.pool, &country, chunk, since)
                            .await?
                            .into_iter()
                            .collect();
                    stale.extend(chunk.iter().filter(|t| !fresh.contains(*t)).cloned());
                }
                // Stored batch by batch, so a retry after a failure resumes where it stopped.
                for batch in stale.chunks(BATCH) {
                    ctx.check_cancelled()?;
                    let rows = fetch(client.as_ref(), org_id, &country, batch, ids::now_ms())
                        .await
                        .map_err(job_error)?;
                    asked += batch.len();
                    for chunk in rows.chunks(PUT_MAX) {
                        popularity::put_many(&db.pool, chunk).await?;
                    }
                    stored += rows.iter().filter(|r| r.popularity.is_some()).count();
                }
            }
        }
        tracing::info!(
            job.id = %ctx.job_id,
            period = %self.period,
            groups,
            asked,
            with_popularity = stored,
            "search popularity refreshed"
        );
        Ok(Done::message("Search popularity refreshed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_grouped_by_storefront_normalised() {
        let rows = vec![
            (
                "Photo Editor".to_string(),
                Some(r#"["US","gb"]"#.to_string()),
            ),
            ("PHOTO  editor!".to_string(), Some(r#"["US"]"#.to_string())),
            ("!!".to_string(), Some(r#"["US"]"#.to_string())),
            ("no countries".to_string(), None),
        ];
        let got = by_country(rows);
        let want: BTreeMap<String, BTreeSet<String>> = [
            ("GB".to_string(), ["photo editor".to_string()].into()),
            ("US".to_string(), ["photo editor".to_string()].into()),
        ]
        .into();
        assert_eq!(got, want);
    }
}
