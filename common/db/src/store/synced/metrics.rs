//! The one writer of `asa_day_metrics`: [`replace_days`] swaps every row of one campaign
//! group, level and day range for the rows a sync just fetched, in one transaction, so a
//! retried or re-run page never duplicates a row and a restated day replaces the old one.

use sqlx::{Acquire, Any, AnyConnection};

use super::{MAX_BINDS, Val, insert_rows};

/// The level of a metrics row (`asa_day_metrics.level`), which the report facts' day blobs
/// are kept by too (`store::report_facts::Level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Campaign = 1,
    AdGroup = 2,
    Keyword = 3,
    SearchTerm = 4,
    Ad = 5,
}

impl Level {
    /// Every level, parents first (the order a sync fetches them in).
    pub const ALL: [Level; 5] = [
        Level::Campaign,
        Level::AdGroup,
        Level::Keyword,
        Level::SearchTerm,
        Level::Ad,
    ];

    /// The stored number.
    pub fn code(self) -> i64 {
        self as i64
    }
}

/// One entity's counters on one day (money in micros of the group's currency).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DayRow {
    /// YYYY-MM-DD, the day in the campaign group's time zone.
    pub day: String,
    /// The id at the row's level (the campaign's for campaign rows).
    pub entity_id: i64,
    pub campaign_id: i64,
    /// 0 for campaign rows.
    pub ad_group_id: i64,
    pub impressions: i64,
    pub taps: i64,
    pub tap_installs: i64,
    pub view_installs: i64,
    pub tap_new_downloads: i64,
    pub tap_redownloads: i64,
    pub view_new_downloads: i64,
    pub view_redownloads: i64,
    pub tap_pre_orders: i64,
    pub view_pre_orders: i64,
    pub spend_micros: i64,
}

impl DayRow {
    /// The ids and counters, in the column order of `asa_day_metrics` after the day.
    pub fn fields(&self) -> [i64; 14] {
        [
            self.entity_id,
            self.campaign_id,
            self.ad_group_id,
            self.impressions,
            self.taps,
            self.tap_installs,
            self.view_installs,
            self.tap_new_downloads,
            self.tap_redownloads,
            self.view_new_downloads,
            self.view_redownloads,
            self.tap_pre_orders,
            self.view_pre_orders,
            self.spend_micros,
        ]
    }

    /// The row of `day` with [`DayRow::fields`] `f`.
    pub fn from_fields(day: String, f: [i64; 14]) -> DayRow {
        let [
            entity_id,
            campaign_id,
            ad_group_id,
            impressions,
            taps,
            tap_installs,
            view_installs,
            tap_new_downloads,
            tap_redownloads,
            view_new_downloads,
            view_redownloads,
            tap_pre_orders,
            view_pre_orders,
            spend_micros,
        ] = f;
        DayRow {
            day,
            entity_id,
            campaign_id,
            ad_group_id,
            impressions,
            taps,
            tap_installs,
            view_installs,
            tap_new_downloads,
            tap_redownloads,
            view_new_downloads,
            view_redownloads,
            tap_pre_orders,
            view_pre_orders,
            spend_micros,
        }
    }

    fn add(&mut self, o: &DayRow) {
        self.impressions += o.impressions;
        self.taps += o.taps;
        self.tap_installs += o.tap_installs;
        self.view_installs += o.view_installs;
        self.tap_new_downloads += o.tap_new_downloads;
        self.tap_redownloads += o.tap_redownloads;
        self.view_new_downloads += o.view_new_downloads;
        self.view_redownloads += o.view_redownloads;
        self.tap_pre_orders += o.tap_pre_orders;
        self.view_pre_orders += o.view_pre_orders;
        self.spend_micros += o.spend_micros;
    }
}

const COLUMNS: [&str; 17] = [
    "org_key",
    "level",
    "day",
    "entity_id",
    "campaign_id",
    "ad_group_id",
    "impressions",
    "taps",
    "tap_installs",
    "view_installs",
    "tap_new_downloads",
    "tap_redownloads",
    "view_new_downloads",
    "view_redownloads",
    "tap_pre_orders",
    "view_pre_orders",
    "spend_micros",
];

/// Replaces, in one transaction, every `asa_day_metrics` row of `org_key` at `level` whose
/// day is in `from..=to` (YYYY-MM-DD) with `rows` (rows outside the range are an error).
/// Two rows of the same day and entity are added together (a report split finer than the
/// key). Returns the rows stored.
///
/// `conn` is a pool, a connection or a transaction (a savepoint is used inside one).
pub async fn replace_days<'c, A>(
    conn: A,
    org_key: i64,
    level: Level,
    from: &str,
    to: &str,
    rows: &[DayRow],
) -> Result<u64, sqlx::Error>
where
    A: Acquire<'c, Database = Any>,
{
    replace_days_with(conn, org_key, level, from, to, rows, Writes::Bulk).await
}

/// How [`replace_days_with`] sends its rows: the way the sync does ([`Writes::Bulk`]), or a
/// baseline `searchdeck bench reports` times it against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// `UNNEST` of one text array per column on PostgreSQL, multi-row `VALUES` on SQLite.
    Bulk,
    /// Multi-row `VALUES` lists of bound parameters (PostgreSQL's writes before `UNNEST`).
    Values,
    /// One `INSERT` a row.
    RowByRow,
}

/// [`replace_days`], its rows sent as `writes` says.
pub async fn replace_days_with<'c, A>(
    conn: A,
    org_key: i64,
    level: Level,
    from: &str,
    to: &str,
    rows: &[DayRow],
    writes: Writes,
) -> Result<u64, sqlx::Error>
where
    A: Acquire<'c, Database = Any>,
{
    if let Some(bad) = rows
        .iter()
        .find(|r| r.day.as_str() < from || r.day.as_str() > to)
    {
        return Err(sqlx::Error::Protocol(format!(
            "metrics row of {} lies outside the replaced days {from}..={to}",
            bad.day
        )));
    }
    // Rows in key order (an index, not a copy: a large account's slice holds millions),
    // merged and turned into bound values one statement's worth at a time.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (&rows[a], &rows[b]);
        (a.day.as_str(), a.entity_id).cmp(&(b.day.as_str(), b.entity_id))
    });
    let mut tx = conn.begin().await?;
    let postgres = tx.backend_name() == "PostgreSQL";
    // The day column is DATE on PostgreSQL (text parameters need a cast) and ISO text on
    // SQLite (compared as text).
    let day = |n: u32| {
        if postgres {
            format!("CAST(${n} AS DATE)")
        } else {
            format!("${n}")
        }
    };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM asa_day_metrics WHERE org_key = $1 AND level = $2 AND day >= {} AND day <= {}",
        day(3),
        day(4)
    )))
    .bind(org_key)
    .bind(level.code())
    .bind(from)
    .bind(to)
    .execute(&mut *tx)
    .await?;
    let casts = [None, None, postgres.then_some("DATE")];
    let unnest = postgres && writes == Writes::Bulk;
    let per_statement = match writes {
        _ if unnest => UNNEST_ROWS,
        Writes::RowByRow => 1,
        _ => MAX_BINDS / COLUMNS.len(),
    };
    let mut stored = 0;
    let mut batch: Vec<DayRow> = Vec::with_capacity(per_statement.min(rows.len()));
    for i in order {
        let r = &rows[i];
        match batch.last_mut() {
            Some(m) if m.day == r.day && m.entity_id == r.entity_id => m.add(r),
            _ => {
                if batch.len() == per_statement {
                    stored += insert(&mut tx, unnest, org_key, level, &casts, &batch).await?;
                    batch.clear();
                }
                batch.push(r.clone());
            }
        }
    }
    stored += insert(&mut tx, unnest, org_key, level, &casts, &batch).await?;
    tx.commit().await?;
    Ok(stored)
}

/// Rows per PostgreSQL statement: one `UNNEST` of 15 arrays of this many values.
const UNNEST_ROWS: usize = 20_000;

/// Inserts one statement's worth of merged rows: with `unnest` (PostgreSQL) one `UNNEST` of
/// a text array per column (the `Any` driver binds no arrays; PostgreSQL parses the text
/// into typed arrays server-side: 1.8× the speed of `VALUES` lists of bound parameters in
/// `searchdeck bench reports`, `store_rows`), else a multi-row `VALUES` list.
async fn insert(
    conn: &mut AnyConnection,
    unnest: bool,
    org_key: i64,
    level: Level,
    casts: &[Option<&str>],
    batch: &[DayRow],
) -> Result<u64, sqlx::Error> {
    if !unnest {
        return insert_batch(conn, org_key, level, casts, batch).await;
    }
    if batch.is_empty() {
        return Ok(0);
    }
    // The columns after org_key and level, each as a PostgreSQL array literal's contents.
    let mut columns: Vec<String> = vec![String::with_capacity(batch.len() * 12); COLUMNS.len() - 2];
    for r in batch {
        let values = r.fields();
        let sep = if columns[0].is_empty() { "" } else { "," };
        columns[0].push_str(sep);
        columns[0].push_str(&r.day);
        for (c, v) in columns[1..].iter_mut().zip(values) {
            c.push_str(sep);
            c.push_str(&v.to_string());
        }
    }
    let arrays = (0..columns.len())
        .map(|i| {
            let ty = if i == 0 { "date" } else { "int8" };
            format!("string_to_array(${}, ',')::{ty}[]", i + 3)
        })
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO asa_day_metrics ({}) SELECT CAST($1 AS BIGINT), CAST($2 AS SMALLINT), t.* \
         FROM UNNEST({arrays}) AS t",
        COLUMNS.join(", ")
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(level.code());
    for c in columns {
        q = q.bind(c);
    }
    Ok(q.execute(&mut *conn).await?.rows_affected())
}

/// Inserts one statement's worth of merged rows.
async fn insert_batch(
    conn: &mut AnyConnection,
    org_key: i64,
    level: Level,
    casts: &[Option<&str>],
    batch: &[DayRow],
) -> Result<u64, sqlx::Error> {
    if batch.is_empty() {
        return Ok(0);
    }
    let values: Vec<Vec<Val>> = batch
        .iter()
        .map(|r| {
            let mut v: Vec<Val> = vec![org_key.into(), level.code().into(), r.day.as_str().into()];
            v.extend(r.fields().map(Val::from));
            v
        })
        .collect();
    insert_rows(conn, "asa_day_metrics", &COLUMNS, casts, "", &values).await
}
