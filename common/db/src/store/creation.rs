//! What the campaign-creation jobs (`create-campaigns`, `copy-campaigns`) have made at Apple
//! Ads (`creation_entities`): each campaign, ad group, creative and ad by its natural key, and
//! each finished bulk step (an ad group's keywords, its negatives) as a marker, with Apple's
//! id. A job writes a row in the transaction that stores the entity in our synced tables, as
//! soon as Apple answers; a run that resumes after a killed worker or a retry reads them all
//! ([`of_job`]) and skips what is recorded, so nothing is created twice.

use std::collections::HashMap;

use super::Exec;

/// One recorded entity or step of a job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Apple's id (0 for a step marker).
    pub provider_id: i64,
    /// What a rerun reports again (refused bulk items as JSON), if anything.
    pub detail: Option<String>,
}

/// Records `natural_key` of job `job_id` with Apple's id. Recording the same key again keeps
/// the first row (a rerun that found the entity at Apple records what is already there).
pub async fn record(
    ex: impl Exec<'_>,
    job_id: &str,
    natural_key: &str,
    provider_id: i64,
    detail: Option<&str>,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO creation_entities (job_id, natural_key, provider_id, detail, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (job_id, natural_key) DO NOTHING",
    )
    .bind(job_id)
    .bind(natural_key)
    .bind(provider_id)
    .bind(detail)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Everything job `job_id` recorded, by natural key.
pub async fn of_job(
    ex: impl Exec<'_>,
    job_id: &str,
) -> Result<HashMap<String, Recorded>, sqlx::Error> {
    let rows: Vec<(String, i64, Option<String>)> = sqlx::query_as(
        "SELECT natural_key, provider_id, detail FROM creation_entities WHERE job_id = $1",
    )
    .bind(job_id)
    .fetch_all(ex)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(key, provider_id, detail)| {
            (
                key,
                Recorded {
                    provider_id,
                    detail,
                },
            )
        })
        .collect())
}

/// Removes the records written before `before_ms` (their tasks are gone); returns how many.
pub async fn delete_before(ex: impl Exec<'_>, before_ms: i64) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM creation_entities WHERE created_at < $1")
            .bind(before_ms)
            .execute(ex)
            .await?
            .rows_affected(),
    )
}
