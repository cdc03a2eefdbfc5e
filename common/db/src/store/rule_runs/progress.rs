//! What a run's job writes as it goes and reads back: its items, each item's result as it
//! is sent, the run's status and end (or every unfinished run failed), the names of the
//! entities it changed, and the undo's marks.

use super::*;

/// The items of run `run_id`, in order.
pub async fn items(ex: impl Exec<'_>, run_id: &str) -> Result<Vec<ItemRow>, sqlx::Error> {
    sqlx::query(
        "SELECT seq, level, entity_id, name, campaign_id, ad_group_id, vals, action, field, \
           old_value, new_value, detail, result, message \
         FROM rule_run_items WHERE run_id = $1 ORDER BY seq",
    )
    .bind(run_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(item_row)
    .collect()
}

/// Sets the result of item `seq` of run `run_id` (and its detail, when given).
pub async fn set_item(
    ex: impl Exec<'_>,
    run_id: &str,
    seq: i64,
    result: &str,
    message: Option<&str>,
    detail: Option<&serde_json::Value>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rule_run_items SET result = $3, message = $4, \
           detail = COALESCE($5, detail) WHERE run_id = $1 AND seq = $2",
    )
    .bind(run_id)
    .bind(seq)
    .bind(result)
    .bind(message)
    .bind(detail.map(|d| d.to_string()))
    .execute(ex)
    .await?;
    Ok(())
}

/// Sets run `id`'s status (and reason).
pub async fn set_status(
    ex: impl Exec<'_>,
    id: &str,
    status: &str,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rule_runs SET status = $2, reason = $3 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(reason)
        .execute(ex)
        .await?;
    Ok(())
}

/// Ends run `id` with `status`, its item counts from its items, at `at`.
pub async fn finish(
    ex: &mut sqlx::AnyConnection,
    id: &str,
    status: &str,
    reason: Option<&str>,
    at: i64,
) -> Result<RunRow, sqlx::Error> {
    sqlx::query(
        "UPDATE rule_runs SET status = $2, reason = $3, finished_at = $4, \
           applied = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'APPLIED'), \
           refused = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'REFUSED'), \
           skipped = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'SKIPPED') \
         WHERE id = $1",
    )
    .bind(id)
    .bind(status)
    .bind(reason)
    .bind(at)
    .execute(&mut *ex)
    .await?;
    let row = sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE id = $1"
    )))
    .bind(id)
    .fetch_one(&mut *ex)
    .await?;
    run_row(&row)
}

/// Ends the run of (`rule_key`, `period`) `FAILED` with `reason` when it is still
/// `PLANNED` or `APPLYING` (its job was given up: nothing will send the rest); answers the
/// run so ended, None when there is no such run or it had ended. Items keep their results:
/// those applied stay applied (and undoable), those never sent stay `PLANNED`.
pub async fn fail_unfinished(
    conn: &mut sqlx::AnyConnection,
    rule_key: &str,
    period: &str,
    reason: &str,
    at: i64,
) -> Result<Option<RunRow>, sqlx::Error> {
    let id: Option<String> = sqlx::query_scalar(
        "SELECT id FROM rule_runs WHERE rule_key = $1 AND period = $2 \
         AND status IN ('PLANNED', 'APPLYING')",
    )
    .bind(rule_key)
    .bind(period)
    .fetch_optional(&mut *conn)
    .await?;
    match id {
        Some(id) => Ok(Some(finish(conn, &id, FAILED, Some(reason), at).await?)),
        None => Ok(None),
    }
}

/// Ids per bound `IN` list of [`entity_names`] (far under either backend's bind limit).
const NAMES_CHUNK: usize = 500;

/// The names of campaigns `campaigns` and ad groups `ad_groups` of campaign group `org_key`
/// by id (deleted ones included: a run's history names what it touched even after Apple
/// deleted it) — what a run's items show beside their ids. Unknown ids are absent.
pub async fn entity_names(
    conn: &mut sqlx::AnyConnection,
    org_key: i64,
    campaigns: &[i64],
    ad_groups: &[i64],
) -> Result<(HashMap<i64, String>, HashMap<i64, String>), sqlx::Error> {
    let mut out = (HashMap::new(), HashMap::new());
    for (table, ids, names) in [
        ("asa_campaigns", campaigns, &mut out.0),
        ("asa_ad_groups", ad_groups, &mut out.1),
    ] {
        for chunk in ids.chunks(NAMES_CHUNK) {
            let sql = format!(
                "SELECT id, name FROM {table} WHERE org_key = $1 AND id IN ({})",
                crate::store::placeholders(2, chunk.len())
            );
            let mut q = sqlx::query(AssertSqlSafe(sql)).bind(org_key);
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(&mut *conn).await? {
                names.insert(r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?);
            }
        }
    }
    Ok(out)
}

/// Marks run `id` undone by run `undo_id`, and its items `seqs` UNDONE.
pub async fn set_undone(
    ex: &mut sqlx::AnyConnection,
    id: &str,
    undo_id: &str,
    seqs: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rule_runs SET undone_by = $2 WHERE id = $1")
        .bind(id)
        .bind(undo_id)
        .execute(&mut *ex)
        .await?;
    for seq in seqs {
        sqlx::query("UPDATE rule_run_items SET result = 'UNDONE' WHERE run_id = $1 AND seq = $2")
            .bind(id)
            .bind(seq)
            .execute(&mut *ex)
            .await?;
    }
    Ok(())
}
