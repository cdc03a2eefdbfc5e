//! The attributed events as received, once per (provider, dedupe id), and what the
//! integration screen shows of them: the newest, and how many arrived since a time.

use sqlx::Row;

use crate::store::Exec;

/// An event as stored (`searchdeck_model::attribution::AttributionEvent` with its install
/// resolved: the cohort's time and day, and the campaign ids taken from its install when the
/// event had none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub provider: String,
    pub dedupe_id: String,
    /// `install` or `event`.
    pub kind: String,
    pub event_name: String,
    pub adam_id: Option<i64>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub ad_group_id: Option<i64>,
    pub keyword_id: Option<i64>,
    pub ad_id: Option<i64>,
    pub claim_type: Option<String>,
    pub conversion_type: Option<String>,
    pub placement: Option<String>,
    pub country: Option<String>,
    pub revenue_micros: Option<i64>,
    pub currency: Option<String>,
    /// Unix ms.
    pub event_at: i64,
    pub install_at: i64,
    /// YYYY-MM-DD.
    pub install_day: String,
    pub device_id: Option<String>,
    /// Sent from the integration screen's "Send test event".
    pub test: bool,
    pub received_at: i64,
}

const COLUMNS: &str = "provider, dedupe_id, kind, event_name, adam_id, org_id, campaign_id, \
     ad_group_id, keyword_id, ad_id, claim_type, conversion_type, placement, country, \
     revenue_micros, currency, event_at, install_at, install_day, device_id, test, received_at";

fn read(row: &sqlx::any::AnyRow) -> Result<StoredEvent, sqlx::Error> {
    Ok(StoredEvent {
        provider: row.try_get("provider")?,
        dedupe_id: row.try_get("dedupe_id")?,
        kind: row.try_get("kind")?,
        event_name: row.try_get("event_name")?,
        adam_id: row.try_get("adam_id")?,
        org_id: row.try_get("org_id")?,
        campaign_id: row.try_get("campaign_id")?,
        ad_group_id: row.try_get("ad_group_id")?,
        keyword_id: row.try_get("keyword_id")?,
        ad_id: row.try_get("ad_id")?,
        claim_type: row.try_get("claim_type")?,
        conversion_type: row.try_get("conversion_type")?,
        placement: row.try_get("placement")?,
        country: row.try_get("country")?,
        revenue_micros: row.try_get("revenue_micros")?,
        currency: row.try_get("currency")?,
        event_at: row.try_get("event_at")?,
        install_at: row.try_get("install_at")?,
        install_day: row.try_get("install_day")?,
        device_id: row.try_get("device_id")?,
        test: row.try_get::<i64, _>("test")? != 0,
        received_at: row.try_get("received_at")?,
    })
}

/// Stores `event` unless the workspace has one with its provider and dedupe id; returns
/// whether it was stored (a replay is not).
pub async fn insert(
    ex: impl Exec<'_>,
    workspace_id: &str,
    e: &StoredEvent,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO attribution_events (workspace_id, {COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
           $18, $19, $20, $21, $22, $23) \
         ON CONFLICT (workspace_id, provider, dedupe_id) DO NOTHING"
    )))
    .bind(workspace_id)
    .bind(&e.provider)
    .bind(&e.dedupe_id)
    .bind(&e.kind)
    .bind(&e.event_name)
    .bind(e.adam_id)
    .bind(e.org_id)
    .bind(e.campaign_id)
    .bind(e.ad_group_id)
    .bind(e.keyword_id)
    .bind(e.ad_id)
    .bind(&e.claim_type)
    .bind(&e.conversion_type)
    .bind(&e.placement)
    .bind(&e.country)
    .bind(e.revenue_micros)
    .bind(&e.currency)
    .bind(e.event_at)
    .bind(e.install_at)
    .bind(&e.install_day)
    .bind(&e.device_id)
    .bind(i64::from(e.test))
    .bind(e.received_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The install of `device_id` under `provider` (the newest, for a device that reinstalled):
/// what a later in-app event without campaign ids or install time is tied to.
pub async fn install_of(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    device_id: &str,
) -> Result<Option<StoredEvent>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_events \
         WHERE workspace_id = $1 AND provider = $2 AND device_id = $3 AND kind = 'install' \
         ORDER BY install_at DESC LIMIT 1"
    )))
    .bind(workspace_id)
    .bind(provider)
    .bind(device_id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(read)
    .transpose()
}

/// The newest `limit` events of `provider` received, newest first.
pub async fn recent(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    limit: i64,
) -> Result<Vec<StoredEvent>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_events WHERE workspace_id = $1 AND provider = $2 \
         ORDER BY received_at DESC, dedupe_id LIMIT $3"
    )))
    .bind(workspace_id)
    .bind(provider)
    .bind(limit)
    .fetch_all(ex)
    .await?
    .iter()
    .map(read)
    .collect()
}

/// Per provider: events received since `since_ms` (test events left out) and whether any
/// event was ever received — the integration's status ('Active' when history or data
/// exists, docs/product.md#4-integration-status).
pub async fn counts_since(
    ex: impl Exec<'_>,
    workspace_id: &str,
    since_ms: i64,
) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT provider, \
           CAST(SUM(CASE WHEN received_at >= $2 AND test = 0 THEN 1 ELSE 0 END) AS BIGINT) AS recent, \
           CAST(SUM(CASE WHEN test = 0 THEN 1 ELSE 0 END) AS BIGINT) AS ever \
         FROM attribution_events WHERE workspace_id = $1 GROUP BY provider",
    )
    .bind(workspace_id)
    .bind(since_ms)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|row| Ok((row.try_get("provider")?, row.try_get("recent")?, row.try_get("ever")?)))
    .collect()
}

/// The time zone of the campaign group of `campaign_id`, among the workspace's synced
/// campaigns: the outer None when the workspace has not synced the campaign (yet), the inner
/// when Apple gave its group no zone. An install's day is its day there, as Apple's reports
/// count days.
pub async fn campaign_zone(
    ex: impl Exec<'_>,
    workspace_id: &str,
    campaign_id: i64,
) -> Result<Option<Option<String>>, sqlx::Error> {
    sqlx::query(
        "SELECT o.time_zone FROM asa_campaigns c \
         JOIN sync_orgs o ON o.org_key = c.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND c.id = $2 LIMIT 1",
    )
    .bind(workspace_id)
    .bind(campaign_id)
    .fetch_optional(ex)
    .await?
    .map(|row| row.try_get("time_zone"))
    .transpose()
}

/// One of the workspace's synced campaigns (the newest synced), for a test event to name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CampaignRef {
    pub org_id: i64,
    pub campaign_id: i64,
    pub adam_id: Option<i64>,
}

/// A campaign of the workspace that is not deleted, if it synced any.
pub async fn any_campaign(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Option<CampaignRef>, sqlx::Error> {
    sqlx::query(
        "SELECT o.org_id, c.id, c.adam_id FROM asa_campaigns c \
         JOIN sync_orgs o ON o.org_key = c.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND c.deleted = 0 \
         ORDER BY c.synced_at DESC, c.id LIMIT 1",
    )
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?
    .map(|row| {
        Ok(CampaignRef {
            org_id: row.try_get("org_id")?,
            campaign_id: row.try_get("id")?,
            adam_id: row.try_get("adam_id")?,
        })
    })
    .transpose()
}

/// The oldest install day (YYYY-MM-DD) of the workspace's attributed installs (test events
/// left out): which cohort windows can have data yet.
pub async fn oldest_install_day(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query(
        "SELECT MIN(install_day) AS day FROM attribution_events \
         WHERE workspace_id = $1 AND kind = 'install' AND test = 0 AND campaign_id IS NOT NULL",
    )
    .bind(workspace_id)
    .fetch_one(ex)
    .await?
    .try_get("day")
}

/// When the workspace's newest attributed data arrived (Unix ms): its newest event (test
/// events left out) or the newest day a reporting API's pull gave, whichever is later —
/// whether its providers are still delivering.
pub async fn newest_received(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query(
        "SELECT MAX(at) AS at FROM ( \
           SELECT MAX(received_at) AS at FROM attribution_events \
             WHERE workspace_id = $1 AND test = 0 \
           UNION ALL \
           SELECT MAX(pulled_at) AS at FROM attribution_pulled_days WHERE workspace_id = $1 \
         ) delivered",
    )
    .bind(workspace_id)
    .fetch_one(ex)
    .await?
    .try_get("at")
}
