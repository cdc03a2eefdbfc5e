//! The keyword suggester's rows: a finished collection's keywords, kept with its task for
//! 24 h (`suggester_results`), the wall time of finished collections for the timing hint
//! (`suggester_runs`), and the step-1 defaults each user last sent (`suggester_defaults`).

use super::Exec;
use crate::ids;

/// How long a finished collection's keywords are kept (docs/product.md#9-suggester: 24 h).
pub const RESULT_TTL_MS: i64 = 24 * 3600 * 1000;
/// How many recent runs the timing hint takes the median of.
pub const TIMING_RUNS: i64 = 10;

/// Keeps a finished collection's keywords (`items`, the JSON list of `Keyword`s).
pub async fn save_result(
    ex: impl Exec<'_>,
    task_id: &str,
    workspace_id: &str,
    items: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO suggester_results (task_id, workspace_id, items, created_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (task_id) DO NOTHING",
    )
    .bind(task_id)
    .bind(workspace_id)
    .bind(items)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// The keywords of a collection of the workspace, unless older than 24 h as of `now_ms`.
pub async fn result(
    ex: impl Exec<'_>,
    workspace_id: &str,
    task_id: &str,
    now_ms: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT items FROM suggester_results WHERE workspace_id = $1 AND task_id = $2 \
         AND created_at >= $3",
    )
    .bind(workspace_id)
    .bind(task_id)
    .bind(now_ms - RESULT_TTL_MS)
    .fetch_optional(ex)
    .await
}

/// Deletes the results older than 24 h as of `now_ms`; returns how many.
pub async fn delete_expired(ex: impl Exec<'_>, now_ms: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM suggester_results WHERE created_at < $1")
        .bind(now_ms - RESULT_TTL_MS)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

/// Records a finished collection's wall time and the provider calls it made.
pub async fn record_run(
    ex: impl Exec<'_>,
    suggestion_type: &str,
    country: &str,
    duration_ms: i64,
    calls: u64,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO suggester_runs (id, suggestion_type, country, duration_ms, calls, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(ids::new_id())
    .bind(suggestion_type)
    .bind(country)
    .bind(duration_ms)
    .bind(calls as i64)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// The median wall time (ms) of the last [`TIMING_RUNS`] finished collections of this type
/// and country; None when there are none.
pub async fn median_duration(
    ex: impl Exec<'_>,
    suggestion_type: &str,
    country: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let mut last: Vec<i64> = sqlx::query_scalar(
        "SELECT duration_ms FROM suggester_runs WHERE suggestion_type = $1 AND country = $2 \
         ORDER BY finished_at DESC, id DESC LIMIT $3",
    )
    .bind(suggestion_type)
    .bind(country)
    .bind(TIMING_RUNS)
    .fetch_all(ex)
    .await?;
    Ok(median(&mut last))
}

/// The installation's measured wall time per provider call (ms): the median over the last
/// [`TIMING_RUNS`] finished collections of any type and country that recorded their calls;
/// None when there are none.
pub async fn median_ms_per_call(ex: impl Exec<'_>) -> Result<Option<i64>, sqlx::Error> {
    let mut last: Vec<i64> = sqlx::query_scalar(
        "SELECT duration_ms / calls FROM suggester_runs WHERE calls > 0 \
         ORDER BY finished_at DESC, id DESC LIMIT $1",
    )
    .bind(TIMING_RUNS)
    .fetch_all(ex)
    .await?;
    Ok(median(&mut last))
}

/// The median of `values` (the mean of the middle two for an even count, rounded down).
pub fn median(values: &mut [i64]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2
    })
}

/// Remembers the negative keywords (`negatives`, a JSON list) a user last sent.
pub async fn set_defaults(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    negatives: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO suggester_defaults (workspace_id, user_id, negative_keywords, updated_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id, user_id) \
         DO UPDATE SET negative_keywords = $3, updated_at = $4",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(negatives)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// The negative keywords (JSON list) the user last sent in the workspace, if any.
pub async fn defaults(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT negative_keywords FROM suggester_defaults WHERE workspace_id = $1 AND user_id = $2",
    )
    .bind(workspace_id)
    .bind(user_id)
    .fetch_optional(ex)
    .await
}

/// A keyword of a campaign group where it is bid on: text, match type, campaign id and
/// name, ad group id and name.
pub type KeywordPlace = (String, String, i64, String, i64, String);

/// The live keywords of synced campaign group `org_key`, with their campaign and ad group
/// (what a collected keyword's `bidOn` lists).
pub async fn keyword_places(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<Vec<KeywordPlace>, sqlx::Error> {
    sqlx::query_as(
        "SELECT k.text, k.match_type, k.campaign_id, c.name, k.ad_group_id, g.name \
         FROM asa_keywords k JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         JOIN asa_ad_groups g ON g.org_key = k.org_key AND g.id = k.ad_group_id \
         WHERE k.org_key = $1 AND k.deleted = 0 AND c.deleted = 0 AND g.deleted = 0 \
         ORDER BY k.campaign_id, k.ad_group_id, k.id",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await
}

/// A negative keyword's place: text, campaign id and name, ad group id (None: campaign level).
pub type NegativePlace = (String, i64, String, Option<i64>);

/// The live negative keywords of synced campaign group `org_key` (a collected keyword's
/// `negatedIn`).
pub async fn negative_places(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<Vec<NegativePlace>, sqlx::Error> {
    sqlx::query_as(
        "SELECT n.text, n.campaign_id, c.name, n.ad_group_id \
         FROM asa_negative_keywords n JOIN asa_campaigns c ON c.org_key = n.org_key AND c.id = n.campaign_id \
         WHERE n.org_key = $1 AND n.deleted = 0 AND c.deleted = 0 \
         ORDER BY n.campaign_id, COALESCE(n.ad_group_id, 0), n.id",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await
}

/// The search terms of app `adam_id`'s campaigns in synced campaign group `org_key`: id and
/// text (their traffic is in the report facts, level search term).
pub async fn search_terms(
    ex: impl Exec<'_>,
    org_key: i64,
    adam_id: i64,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.id, t.text FROM asa_search_terms t \
         JOIN asa_campaigns c ON c.org_key = t.org_key AND c.id = t.campaign_id \
         WHERE t.org_key = $1 AND c.adam_id = $2 ORDER BY t.id",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_all(ex)
    .await
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [5, 1, 3]), Some(3));
        assert_eq!(median(&mut [4, 1, 3, 10]), Some(3));
    }
}
