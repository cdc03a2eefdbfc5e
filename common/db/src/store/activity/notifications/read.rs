//! Read state, per user: single reads ([`mark`]) and a watermark over `seq`
//! ([`mark_all`]) with the single reads below it cleared; and the retention
//! ([`delete_older`]).

use sqlx::Row;

use super::*;

/// Member `user_id`'s "Mark all as read" watermark in `workspace_id` (0: none).
pub async fn read_seq(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "SELECT read_seq FROM notification_read_marks WHERE user_id = $1 AND workspace_id = $2",
    )
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?;
    row.map_or(Ok(0), |r| r.try_get("read_seq"))
}

/// Marks the notifications `ids` of `workspace_id` read (or unread) for member `user_id`;
/// ids of another workspace or unknown are ignored. Returns how many changed state.
pub async fn mark(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    ids: &[String],
    read: bool,
) -> Result<u64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let watermark = read_seq(&mut *ex, workspace_id, user_id).await?;
    let list = placeholders(4, ids.len());
    if read {
        let sql = format!(
            "INSERT INTO notification_reads (notification_id, user_id) \
             SELECT n.id, $1 FROM notifications n \
             WHERE n.workspace_id = $2 AND n.seq > $3 AND n.id IN ({list}) \
             ON CONFLICT DO NOTHING"
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(workspace_id)
            .bind(watermark);
        for id in ids {
            q = q.bind(id);
        }
        return Ok(q.execute(&mut *ex).await?.rows_affected());
    }
    // Unread above the watermark: its single read goes.
    let sql = format!(
        "DELETE FROM notification_reads WHERE user_id = $1 AND notification_id IN \
           (SELECT n.id FROM notifications n WHERE n.workspace_id = $2 AND n.seq > $3 \
            AND n.id IN ({list}))"
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(workspace_id)
        .bind(watermark);
    for id in ids {
        q = q.bind(id);
    }
    let mut changed = q.execute(&mut *ex).await?.rows_affected();
    // Unread at or below the watermark: the watermark drops below the lowest of them, and
    // the others it no longer covers become single reads.
    let sql = format!(
        "SELECT COUNT(*) AS n, MIN(n.seq) AS low FROM notifications n \
         WHERE n.workspace_id = $1 AND n.seq <= $2 AND n.id IN ({})",
        placeholders(3, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(watermark);
    for id in ids {
        q = q.bind(id);
    }
    let below = q.fetch_one(&mut *ex).await?;
    let (n, low): (i64, Option<i64>) = (below.try_get("n")?, below.try_get("low")?);
    if let (true, Some(low)) = (n > 0, low) {
        let sql = format!(
            "INSERT INTO notification_reads (notification_id, user_id) \
             SELECT n.id, $1 FROM notifications n \
             WHERE n.workspace_id = $2 AND n.seq >= $3 AND n.seq <= $4 \
               AND n.id NOT IN ({}) ON CONFLICT DO NOTHING",
            placeholders(5, ids.len())
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(workspace_id)
            .bind(low)
            .bind(watermark);
        for id in ids {
            q = q.bind(id);
        }
        q.execute(&mut *ex).await?;
        set_read_seq(&mut *ex, workspace_id, user_id, low - 1).await?;
        changed += n as u64;
    }
    Ok(changed)
}

async fn set_read_seq(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    seq: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO notification_read_marks (user_id, workspace_id, read_seq) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, workspace_id) DO UPDATE SET read_seq = excluded.read_seq",
    )
    .bind(user_id)
    .bind(workspace_id)
    .bind(seq)
    .execute(ex)
    .await?;
    Ok(())
}

/// Marks every notification of `workspace_id` read (the watermark moves to the newest) or
/// unread (the watermark and single reads go) for member `user_id`. Returns how many changed
/// state.
pub async fn mark_all(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    read: bool,
) -> Result<u64, sqlx::Error> {
    let watermark = read_seq(&mut *ex, workspace_id, user_id).await?;
    let everyone = Filter {
        workspace_id,
        user_id,
        ..Filter::default()
    };
    let unread_before = unread(&mut *ex, &everyone, watermark).await?;
    if read {
        let newest: Option<i64> =
            sqlx::query("SELECT MAX(seq) AS s FROM notifications WHERE workspace_id = $1")
                .bind(workspace_id)
                .fetch_one(&mut *ex)
                .await?
                .try_get("s")?;
        let Some(newest) = newest.filter(|s| *s > watermark) else {
            return Ok(unread_before as u64);
        };
        set_read_seq(&mut *ex, workspace_id, user_id, newest).await?;
        clear_reads(&mut *ex, workspace_id, user_id).await?;
        return Ok(unread_before as u64);
    }
    let all: i64 = sqlx::query("SELECT COUNT(*) AS n FROM notifications WHERE workspace_id = $1")
        .bind(workspace_id)
        .fetch_one(&mut *ex)
        .await?
        .try_get("n")?;
    sqlx::query("DELETE FROM notification_read_marks WHERE user_id = $1 AND workspace_id = $2")
        .bind(user_id)
        .bind(workspace_id)
        .execute(&mut *ex)
        .await?;
    clear_reads(&mut *ex, workspace_id, user_id).await?;
    Ok((all - unread_before) as u64)
}

/// Drops member `user_id`'s single reads of `workspace_id`'s notifications.
async fn clear_reads(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM notification_reads WHERE user_id = $1 AND notification_id IN \
           (SELECT id FROM notifications WHERE workspace_id = $2)",
    )
    .bind(user_id)
    .bind(workspace_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Deletes up to `batch` notifications (with their changes) made before `before` (unix
/// seconds), and up to `batch` change records of no notification made before it; returns how
/// many rows went. The retention calls it until it answers 0.
pub async fn delete_older(
    ex: &mut sqlx::AnyConnection,
    before: i64,
    batch: i64,
) -> Result<u64, sqlx::Error> {
    let notifications = sqlx::query(
        "DELETE FROM notifications WHERE id IN \
           (SELECT id FROM notifications WHERE created_at < $1 LIMIT $2)",
    )
    .bind(before)
    .bind(batch)
    .execute(&mut *ex)
    .await?
    .rows_affected();
    let orphans = sqlx::query(
        "DELETE FROM change_records WHERE id IN \
           (SELECT id FROM change_records WHERE notification_id IS NULL AND created_at < $1 \
            LIMIT $2)",
    )
    .bind(before)
    .bind(batch)
    .execute(&mut *ex)
    .await?
    .rows_affected();
    Ok(notifications + orphans)
}
