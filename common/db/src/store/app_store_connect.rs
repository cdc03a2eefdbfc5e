//! App Store Connect connections and the daily sales read from them
//! (docs/api/app-store-connect.md): a workspace's team keys (the `.p8` key sealed, context
//! [`key_context`]; the apps the key saw as JSON), how the last reads went, and per app,
//! day, country and product type the units and proceeds of the Sales and Trends summary.
//! A day read again replaces that day's rows ([`delete_day`], [`upsert_sale`],
//! [`day_read`] in one transaction).

use sqlx::Row;

use super::Exec;

/// A stored connection (its sealed key included: never answer it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    pub id: String,
    pub workspace_id: String,
    pub issuer_id: String,
    pub key_id: String,
    pub vendor_number: String,
    pub private_key_sealed: String,
    pub name: String,
    /// JSON `[{adamId, name, bundleId, sku}]`.
    pub apps: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_success_at: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    /// The newest day whose report was read (YYYY-MM-DD); None before the first.
    pub last_day: Option<String>,
    /// Days read.
    pub days_read: i64,
}

/// The sealing context of a workspace's key `key_id`.
pub fn key_context(workspace_id: &str, key_id: &str) -> String {
    format!("app-store-connect:{workspace_id}:{key_id}")
}

const SELECT: &str = "SELECT c.id, c.workspace_id, c.issuer_id, c.key_id, c.vendor_number, \
     c.private_key_sealed, c.name, c.apps, c.created_at, c.updated_at, c.last_success_at, \
     c.last_error, c.last_error_at, \
     (SELECT MAX(d.day) FROM app_store_sales_days d WHERE d.connection_id = c.id) AS last_day, \
     (SELECT COUNT(*) FROM app_store_sales_days d WHERE d.connection_id = c.id) AS days_read \
     FROM app_store_connections c";

fn read(row: &sqlx::any::AnyRow) -> Result<Connection, sqlx::Error> {
    Ok(Connection {
        id: row.try_get("id")?,
        workspace_id: row.try_get("workspace_id")?,
        issuer_id: row.try_get("issuer_id")?,
        key_id: row.try_get("key_id")?,
        vendor_number: row.try_get("vendor_number")?,
        private_key_sealed: row.try_get("private_key_sealed")?,
        name: row.try_get("name")?,
        apps: row.try_get("apps")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        last_success_at: row.try_get("last_success_at")?,
        last_error: row.try_get("last_error")?,
        last_error_at: row.try_get("last_error_at")?,
        last_day: row.try_get("last_day")?,
        days_read: row.try_get("days_read")?,
    })
}

/// The workspace's connections, oldest first.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<Connection>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE c.workspace_id = $1 ORDER BY c.created_at, c.id"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(read)
    .collect()
}

/// The workspace's connection `id`.
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<Connection>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE c.workspace_id = $1 AND c.id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(read)
    .transpose()
}

/// What a connect stores.
#[derive(Debug, Clone)]
pub struct NewConnection<'a> {
    pub id: &'a str,
    pub workspace_id: &'a str,
    pub issuer_id: &'a str,
    pub key_id: &'a str,
    pub vendor_number: &'a str,
    pub private_key_sealed: &'a str,
    pub name: &'a str,
    pub apps: &'a str,
    pub created_by: &'a str,
}

/// Stores a connection; the same key id connected again replaces its issuer id, vendor
/// number, key, name and apps (and forgets its last error). Answers the connection's id
/// (the first connect's when it was replaced).
pub async fn upsert(
    ex: impl Exec<'_>,
    c: &NewConnection<'_>,
    now_ms: i64,
) -> Result<String, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO app_store_connections (id, workspace_id, issuer_id, key_id, vendor_number, \
           private_key_sealed, name, apps, created_by, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
         ON CONFLICT (workspace_id, key_id) DO UPDATE SET issuer_id = excluded.issuer_id, \
           vendor_number = excluded.vendor_number, private_key_sealed = excluded.private_key_sealed, \
           name = excluded.name, apps = excluded.apps, updated_at = excluded.updated_at, \
           last_error = NULL, last_error_at = NULL \
         RETURNING id",
    )
    .bind(c.id)
    .bind(c.workspace_id)
    .bind(c.issuer_id)
    .bind(c.key_id)
    .bind(c.vendor_number)
    .bind(c.private_key_sealed)
    .bind(c.name)
    .bind(c.apps)
    .bind(c.created_by)
    .bind(now_ms)
    .fetch_one(ex)
    .await
}

/// Removes the workspace's connection `id` (its sales go with it); false when none.
pub async fn delete(ex: impl Exec<'_>, workspace_id: &str, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM app_store_connections WHERE workspace_id = $1 AND id = $2")
        .bind(workspace_id)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a successful read at `now_ms` (the last error cleared).
pub async fn succeeded(ex: impl Exec<'_>, id: &str, now_ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE app_store_connections SET last_success_at = $2, last_error = NULL, \
           last_error_at = NULL WHERE id = $1",
    )
    .bind(id)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records that a read failed with `message` (the user's words).
pub async fn failed(
    ex: impl Exec<'_>,
    id: &str,
    message: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE app_store_connections SET last_error = $2, last_error_at = $3 WHERE id = $1",
    )
    .bind(id)
    .bind(message)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// One stored sales row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaleRow {
    pub adam_id: i64,
    /// YYYY-MM-DD.
    pub day: String,
    pub country: String,
    pub product_type: String,
    pub units: i64,
    pub proceeds_micros: i64,
    pub currency: String,
}

/// Deletes the rows of `day` of connection `id` (before the day's report is written again).
pub async fn delete_day(ex: impl Exec<'_>, id: &str, day: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM app_store_sales WHERE connection_id = $1 AND day = $2")
        .bind(id)
        .bind(day)
        .execute(ex)
        .await?;
    Ok(())
}

/// Writes one row under its natural key (app, day, country, product type), replacing it.
pub async fn upsert_sale(ex: impl Exec<'_>, id: &str, s: &SaleRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_store_sales (connection_id, adam_id, day, country, product_type, units, \
           proceeds_micros, currency) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (connection_id, adam_id, day, country, product_type) DO UPDATE SET \
           units = excluded.units, proceeds_micros = excluded.proceeds_micros, \
           currency = excluded.currency",
    )
    .bind(id)
    .bind(s.adam_id)
    .bind(&s.day)
    .bind(&s.country)
    .bind(&s.product_type)
    .bind(s.units)
    .bind(s.proceeds_micros)
    .bind(&s.currency)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records that `day`'s report of connection `id` was read at `now_ms`.
pub async fn day_read(
    ex: impl Exec<'_>,
    id: &str,
    day: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_store_sales_days (connection_id, day, read_at) VALUES ($1, $2, $3) \
         ON CONFLICT (connection_id, day) DO UPDATE SET read_at = excluded.read_at",
    )
    .bind(id)
    .bind(day)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Units and proceeds of one app on one day in one currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayProceeds {
    pub adam_id: i64,
    pub day: String,
    pub currency: String,
    pub units: i64,
    pub proceeds_micros: i64,
}

/// Connection `id`'s units and proceeds per app, day and currency over `from..=through`
/// (YYYY-MM-DD), by app and day.
pub async fn proceeds(
    ex: impl Exec<'_>,
    id: &str,
    from: &str,
    through: &str,
) -> Result<Vec<DayProceeds>, sqlx::Error> {
    sqlx::query(
        "SELECT adam_id, day, currency, CAST(SUM(units) AS BIGINT) AS units, \
           CAST(SUM(proceeds_micros) AS BIGINT) AS proceeds_micros FROM app_store_sales \
         WHERE connection_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY adam_id, day, currency ORDER BY adam_id, day, currency",
    )
    .bind(id)
    .bind(from)
    .bind(through)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(DayProceeds {
            adam_id: r.try_get("adam_id")?,
            day: r.try_get("day")?,
            currency: r.try_get("currency")?,
            units: r.try_get("units")?,
            proceeds_micros: r.try_get("proceeds_micros")?,
        })
    })
    .collect()
}
