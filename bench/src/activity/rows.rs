//! The pieces the seeded history is made of: a deterministic generator (so both backends
//! hold the same history), what makes a notification (its tag, source, target, field and
//! number of changes, in the proportions of real use), and the multi-row inserts of the
//! notifications and change records with their columns.

/// Campaign groups of the workspace, and campaigns in each.
pub(super) const GROUPS: i64 = 50;
pub(super) const CAMPAIGNS: i64 = 20;
/// Rows per seeding statement.
pub(super) const BATCH: usize = 500;

/// A small deterministic generator (xorshift), so both backends hold the same history.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `lo..=hi`.
    pub(super) fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// Skewed towards `lo` (log-uniform), in `lo..=hi`.
    pub(super) fn skewed(&mut self, lo: i64, hi: i64) -> i64 {
        let f = (self.next() % 10_000) as f64 / 10_000.0;
        ((lo as f64) * ((hi as f64) / (lo as f64)).powf(f)).round() as i64
    }
}

/// What made a notification: tag, source, target, field, and its number of changes.
pub(super) fn kind(rng: &mut Rng) -> (&'static str, &'static str, &'static str, &'static str, i64) {
    match rng.next() % 100 {
        0..40 => ("manual_change", "user", "KEYWORD", "cptBid", 1),
        40..65 => (
            "manual_change",
            "apple_ads",
            "AD_GROUP",
            "status",
            rng.between(1, 5),
        ),
        65..85 => (
            "auto_rules",
            "rule",
            "KEYWORD",
            "cptBid",
            rng.between(1, 100),
        ),
        85..93 => (
            "goal_optimization",
            "rule",
            "AD_GROUP",
            "defaultBidAmount",
            rng.between(1, 20),
        ),
        93..95 => (
            "quick_start",
            "user",
            "MIXED",
            "created",
            rng.between(20, 300),
        ),
        95..97 => ("team", "user", "MIXED", "role", 1),
        _ => (
            "manual_change",
            "user",
            "KEYWORD",
            "status",
            rng.skewed(20, 2_000),
        ),
    }
}

/// A bind of a seeding statement.
pub(super) enum Val {
    Text(String),
    Opt(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
}

/// Inserts `rows` (each `columns.len()` values) into `table`, `BATCH` rows a statement.
pub(super) async fn insert(
    conn: &mut sqlx::AnyConnection,
    table: &str,
    columns: &[&str],
    rows: Vec<Vec<Val>>,
) -> anyhow::Result<()> {
    for chunk in rows.chunks(BATCH) {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
        let mut n = 0;
        for (i, _) in chunk.iter().enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..columns.len() {
                n += 1;
                if c > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("${n}"));
            }
            sql.push(')');
        }
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for row in chunk {
            for v in row {
                q = match v {
                    Val::Text(t) => q.bind(t.clone()),
                    Val::Opt(t) => q.bind(t.clone()),
                    Val::Int(i) => q.bind(*i),
                    Val::OptInt(i) => q.bind(*i),
                };
            }
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// The columns of a seeded notification, in the order of its values.
pub(super) const NOTIFICATION_COLUMNS: &[&str] = &[
    "id",
    "workspace_id",
    "key",
    "tag",
    "type",
    "title",
    "action",
    "target",
    "source",
    "source_name",
    "user_id",
    "email",
    "account_id",
    "org_id",
    "campaign_id",
    "campaign_name",
    "campaign_count",
    "campaign_names",
    "created_at",
    "seq",
];

/// The columns of a seeded change record, in the order of its values.
pub(super) const CHANGE_COLUMNS: &[&str] = &[
    "id",
    "workspace_id",
    "account_id",
    "org_id",
    "level",
    "entity_id",
    "campaign_id",
    "ad_group_id",
    "entity_name",
    "campaign_name",
    "field",
    "old_value",
    "new_value",
    "currency",
    "source",
    "created_at",
    "notification_id",
];
