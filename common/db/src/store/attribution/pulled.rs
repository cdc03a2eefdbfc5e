//! The install days whose facts of a provider come from its reporting API. A pull writes a
//! day with [`replace_day`]: every fact of (provider, install day), pushed or pulled before,
//! is deleted and the day's pulled facts inserted, in the caller's transaction, so a re-pull
//! replaces and never adds. The ingest asks [`is_pulled`] before adding a postback's event
//! to the facts: a pulled day's numbers are the reporting API's alone.

use sqlx::Row;

use crate::store::Exec;
use crate::store::attribution::facts::{self, Fact};

/// Replaces every fact of `provider` on `install_day` with `facts` (each of that day and
/// provider) and records the day as pulled at `now_ms` with its `installs`.
pub async fn replace_day(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    workspace_id: &str,
    provider: &str,
    install_day: &str,
    facts: &[Fact<'_>],
    installs: i64,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM attribution_facts WHERE workspace_id = $1 AND provider = $2 AND install_day = $3",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(install_day)
    .execute(&mut **tx)
    .await?;
    for fact in facts {
        debug_assert!(fact.provider == provider && fact.install_day == install_day);
        // One statement each: a pull may name one key twice, which one multi-row upsert
        // cannot take.
        facts::add_all(&mut **tx, workspace_id, std::slice::from_ref(fact)).await?;
    }
    sqlx::query(
        "INSERT INTO attribution_pulled_days (workspace_id, provider, install_day, pulled_at, installs) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (workspace_id, provider, install_day) DO UPDATE SET \
           pulled_at = excluded.pulled_at, installs = excluded.installs",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(install_day)
    .bind(now_ms)
    .bind(installs)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether `provider`'s facts of `install_day` come from its reporting API.
pub async fn is_pulled(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    install_day: &str,
) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM attribution_pulled_days \
         WHERE workspace_id = $1 AND provider = $2 AND install_day = $3",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(install_day)
    .fetch_one(ex)
    .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// A synced keyword as a report that names keywords by text (AppsFlyer's `af_keywords`)
/// is matched to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordText {
    pub id: i64,
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
}

/// Every synced keyword of the workspace (deleted ones included: their past installs
/// still count), by id.
pub async fn keyword_texts(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<KeywordText>, sqlx::Error> {
    sqlx::query(
        "SELECT DISTINCT k.id, k.ad_group_id, k.text, k.match_type FROM asa_keywords k \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 ORDER BY k.id",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(KeywordText {
            id: r.try_get("id")?,
            ad_group_id: r.try_get("ad_group_id")?,
            text: r.try_get("text")?,
            match_type: r.try_get("match_type")?,
        })
    })
    .collect()
}
