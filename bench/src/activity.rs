//! `searchdeck bench activity`: the activity log over a large history (issue 25's benchmark).
//! Seeds one workspace with `--changes` change records (default 1,000,000) over `--days` days
//! (default 400) across 50 campaign groups, grouped into notifications the way real use makes
//! them — quick edits (one change), changes made outside Searchdeck (one to five), rule runs
//! (up to 100), goal optimisations (up to 20), campaigns created (20 to 300) and bulk edits
//! (20 to 2,000) — with the member's read state (everything older than 30 days marked read,
//! a tenth of the rest read one by one), on SQLite and, with `--database-url`, PostgreSQL.
//! Then times, as `GET /api/accountsActions/all` runs them (the page, its total, the counts
//! per tag, the unread count, the page's grouped changes and campaign names):
//!
//! - `default_30d`: the first page (50) of the default view, the last 30 days;
//! - `search_30d`: the same with a campaign-name search;
//! - `type_auto_rules_30d`: the same filtered to automated rules,
//!
//! each `--iterations` times (after two warm-ups) with the migrations' indexes, then again
//! with the log's indexes dropped (the unindexed baseline, the indexes recreated after), and
//! prints p50/p95 of both and the ratio of their p95. The target: ≤ 50 ms p95.

use std::time::{Duration, Instant};

use clap::Args;
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{
        self,
        activity::notifications::{self, Filter},
    },
};
use serde_json::json;

use crate::reports::percentile;

/// Options of `searchdeck bench activity`.
#[derive(Debug, Clone, Args)]
pub struct ActivityBenchArgs {
    /// Also run on PostgreSQL: a server URL (a database `searchdeck_bench_<pid>` is created
    /// on it and dropped afterwards).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Change records in the workspace.
    #[arg(long, default_value_t = 1_000_000)]
    pub changes: i64,
    /// Days of history.
    #[arg(long, default_value_t = 400)]
    pub days: i64,
    /// Timed runs per case (after two warm-ups).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Skip SQLite (PostgreSQL only).
    #[arg(long)]
    pub no_sqlite: bool,
    /// One JSON object per case instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Campaign groups of the workspace, and campaigns in each.
const GROUPS: i64 = 50;
const CAMPAIGNS: i64 = 20;
/// Rows per seeding statement.
const BATCH: usize = 500;

/// The log's indexes (the migrations' definitions): dropped for the unindexed baseline.
const INDEXES: &[(&str, &str)] = &[
    (
        "notifications_key",
        "CREATE UNIQUE INDEX notifications_key ON notifications (workspace_id, key)",
    ),
    (
        "notifications_time",
        "CREATE INDEX notifications_time ON notifications (workspace_id, created_at, id)",
    ),
    (
        "notifications_tag_time",
        "CREATE INDEX notifications_tag_time ON notifications (workspace_id, tag, created_at, id)",
    ),
    (
        "notifications_seq",
        "CREATE INDEX notifications_seq ON notifications (workspace_id, seq)",
    ),
    (
        "notification_reads_user",
        "CREATE INDEX notification_reads_user ON notification_reads (user_id, notification_id)",
    ),
    (
        "change_records_notification",
        "CREATE INDEX change_records_notification ON change_records (notification_id, field)",
    ),
];

/// A small deterministic generator (xorshift), so both backends hold the same history.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// Skewed towards `lo` (log-uniform), in `lo..=hi`.
    fn skewed(&mut self, lo: i64, hi: i64) -> i64 {
        let f = (self.next() % 10_000) as f64 / 10_000.0;
        ((lo as f64) * ((hi as f64) / (lo as f64)).powf(f)).round() as i64
    }
}

/// What made a notification: tag, source, target, field, and its number of changes.
fn kind(rng: &mut Rng) -> (&'static str, &'static str, &'static str, &'static str, i64) {
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

/// The seeded workspace: its id and member, and "now".
struct Seeded {
    workspace_id: String,
    user_id: String,
    now: i64,
    notifications: i64,
}

/// A bind of a seeding statement.
enum Val {
    Text(String),
    Opt(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
}

/// Inserts `rows` (each `columns.len()` values) into `table`, `BATCH` rows a statement.
async fn insert(
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

const NOTIFICATION_COLUMNS: &[&str] = &[
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

const CHANGE_COLUMNS: &[&str] = &[
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

fn campaign_name(group: i64, campaign: i64) -> String {
    const KINDS: [&str; 4] = ["Brand", "Generic", "Competitor", "Discovery"];
    format!(
        "G{group} — {} {campaign}",
        KINDS[(campaign % KINDS.len() as i64) as usize]
    )
}

/// Seeds the workspace (see the module doc).
async fn seed(db: &Db, args: &ActivityBenchArgs, say: &dyn Fn(&str)) -> anyhow::Result<Seeded> {
    let started = Instant::now();
    let (user_id, workspace_id, account_id) = (new_id(), new_id(), new_id());
    let now = now_ms() / 1000;
    store::users::insert(
        &db.pool,
        store::users::NewUser {
            id: &user_id,
            email: "bench@example.com",
            password_hash: "h",
            full_name: "Bench User",
            source: "",
            now: now * 1000,
        },
    )
    .await?;
    store::workspaces::insert(&db.pool, &workspace_id, "Bench", now * 1000).await?;
    store::workspaces::add_member(&db.pool, &workspace_id, &user_id, "owner", now * 1000).await?;
    store::accounts::upsert(
        &db.pool,
        store::accounts::NewAccount {
            name: "Bench",
            method: "oauth",
            refresh_token_sealed: Some("v1:x"),
            ..store::accounts::NewAccount::without_credentials(
                &account_id,
                &workspace_id,
                &user_id,
                "bench",
                now * 1000,
            )
        },
    )
    .await?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let span = args.days * 86_400;
    let mut written = 0i64;
    let mut count = 0i64;
    let mut read_seq = 0i64;
    let mut conn = db.pool.acquire().await?;
    while written < args.changes {
        let mut notes = Vec::new();
        let mut changes = Vec::new();
        let mut reads = Vec::new();
        while written < args.changes && changes.len() < 20_000 {
            let (tag, source, target, field, n) = kind(&mut rng);
            let n = n.min(args.changes - written);
            let at = now - rng.between(0, span - 1);
            let group = rng.between(1, GROUPS);
            let first = rng.between(1, CAMPAIGNS);
            let campaigns: Vec<i64> = (0..rng.between(1, 3))
                .map(|i| (first + i - 1) % CAMPAIGNS + 1)
                .collect();
            let id = new_id();
            count += 1;
            // Insertion order follows time (a late change from Apple aside).
            let seq = at * 1000 + count % 1000;
            let names: Vec<String> = campaigns.iter().map(|c| campaign_name(group, *c)).collect();
            let lines = format!(
                "\n{}\n",
                names
                    .iter()
                    .map(|n| n.to_lowercase())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            let (source_name, title) = match source {
                "rule" => (
                    format!("Rule {}", group % 7),
                    format!("Rule changed {n} items"),
                ),
                "apple_ads" => ("Apple Ads".to_string(), "Changed in Apple Ads".to_string()),
                _ => (
                    "Bench User".to_string(),
                    format!("{field} changed on {n} items"),
                ),
            };
            notes.push(vec![
                Val::Text(id.clone()),
                Val::Text(workspace_id.clone()),
                Val::Text(format!("bench:{count}")),
                Val::Text(tag.into()),
                Val::Text("change".into()),
                Val::Text(title),
                Val::Text(
                    if field == "created" {
                        "CREATE"
                    } else {
                        "UPDATE"
                    }
                    .into(),
                ),
                Val::Text(target.into()),
                Val::Text(source.into()),
                Val::Text(source_name),
                Val::Opt((source == "user").then(|| user_id.clone())),
                Val::Opt((source == "user").then(|| "bench@example.com".to_string())),
                Val::Opt(Some(account_id.clone())),
                Val::OptInt(Some(group)),
                Val::OptInt(Some(group * 1_000 + campaigns[0])),
                Val::Opt(Some(names[0].clone())),
                Val::Int(names.len() as i64),
                Val::Text(lines),
                Val::Int(at),
                Val::Int(seq),
            ]);
            if at < now - 30 * 86_400 {
                read_seq = read_seq.max(seq);
            } else if rng.next().is_multiple_of(10) {
                reads.push(vec![Val::Text(id.clone()), Val::Text(user_id.clone())]);
            }
            for i in 0..n {
                let c = campaigns[(i % campaigns.len() as i64) as usize];
                let (old, new) = match field {
                    "status" => ("ENABLED".to_string(), "PAUSED".to_string()),
                    "created" => (String::new(), "EXACT".to_string()),
                    "role" => ("reader".to_string(), "writer".to_string()),
                    _ => (
                        format!("{}.{:02}", rng.between(0, 3), rng.between(0, 99)),
                        "1.50".to_string(),
                    ),
                };
                let level = match (target, field) {
                    ("MIXED", _) => "KEYWORD",
                    (t, _) => t,
                };
                changes.push(vec![
                    Val::Text(new_id()),
                    Val::Text(workspace_id.clone()),
                    Val::Opt(Some(account_id.clone())),
                    Val::Int(group),
                    Val::Text(level.into()),
                    Val::Int(rng.between(1, 10_000_000)),
                    Val::Int(group * 1_000 + c),
                    Val::OptInt(Some(group * 100_000 + c * 100 + i % 10)),
                    Val::Text(format!("keyword {i}")),
                    Val::Text(campaign_name(group, c)),
                    Val::Text(field.into()),
                    Val::Opt((!old.is_empty()).then_some(old)),
                    Val::Opt(Some(new)),
                    Val::Opt(field.contains("Bid").then(|| "USD".to_string())),
                    Val::Text(if tag == "team" { "team" } else { tag }.into()),
                    Val::Int(at),
                    Val::Text(id.clone()),
                ]);
            }
            written += n;
        }
        let mut tx = sqlx::Acquire::begin(&mut *conn).await?;
        insert(&mut tx, "notifications", NOTIFICATION_COLUMNS, notes).await?;
        insert(&mut tx, "change_records", CHANGE_COLUMNS, changes).await?;
        insert(
            &mut tx,
            "notification_reads",
            &["notification_id", "user_id"],
            reads,
        )
        .await?;
        tx.commit().await?;
        if written % 200_000 < 20_000 {
            say(&format!(
                "seeded {written} change records, {count} notifications"
            ));
        }
    }
    sqlx::query(
        "INSERT INTO notification_read_marks (user_id, workspace_id, read_seq) VALUES ($1, $2, $3)",
    )
    .bind(&user_id)
    .bind(&workspace_id)
    .bind(read_seq)
    .execute(&mut *conn)
    .await?;
    drop(conn);
    analyze(db).await?;
    say(&format!(
        "seeded {written} change records in {count} notifications in {:.0} s",
        started.elapsed().as_secs_f64()
    ));
    Ok(Seeded {
        workspace_id,
        user_id,
        now,
        notifications: count,
    })
}

async fn analyze(db: &Db) -> anyhow::Result<()> {
    sqlx::query("ANALYZE").execute(&db.pool).await?;
    Ok(())
}

/// One page of the log as the route reads it; returns (page size, total).
async fn page(db: &Db, f: &Filter<'_>) -> anyhow::Result<(usize, i64)> {
    let mut conn = db.pool.acquire().await?;
    let seq = notifications::read_seq(&mut *conn, f.workspace_id, f.user_id).await?;
    let page = notifications::list(&mut *conn, f, seq, 50, 0).await?;
    let total = notifications::total(&mut *conn, f, seq).await?;
    notifications::counts(&mut *conn, f).await?;
    notifications::unread(&mut *conn, f, seq).await?;
    let ids: Vec<String> = page.iter().map(|l| l.row.id.clone()).collect();
    notifications::groups(&mut *conn, &ids).await?;
    notifications::campaign_names(&mut *conn, &ids).await?;
    Ok((page.len(), total))
}

/// p50 and p95 (ms) of `n` timed runs of the page of `f` after two warm-ups, and its total.
async fn timed(db: &Db, f: &Filter<'_>, n: usize) -> anyhow::Result<(f64, f64, i64)> {
    page(db, f).await?;
    page(db, f).await?;
    let mut samples: Vec<Duration> = Vec::with_capacity(n);
    let mut total = 0;
    for _ in 0..n.max(1) {
        let t = Instant::now();
        let (size, all) = page(db, f).await?;
        samples.push(t.elapsed());
        anyhow::ensure!(size as i64 == all.min(50), "a page of {size} of {all}");
        total = all;
    }
    Ok((
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
        total,
    ))
}

async fn bench_backend(
    backend: &str,
    db: &Db,
    args: &ActivityBenchArgs,
) -> anyhow::Result<Vec<serde_json::Value>> {
    let say = |m: &str| {
        if args.json {
            eprintln!("[{backend}] {m}");
        } else {
            println!("[{backend}] {m}");
        }
    };
    let seeded = seed(db, args, &say).await?;
    let base = Filter {
        workspace_id: &seeded.workspace_id,
        user_id: &seeded.user_id,
        from: Some(seeded.now - 30 * 86_400),
        to: Some(seeded.now + 86_400),
        ..Filter::default()
    };
    let cases = [
        ("default_30d", base.clone()),
        (
            "search_30d",
            Filter {
                campaign_name: Some("g17 — brand"),
                ..base.clone()
            },
        ),
        (
            "type_auto_rules_30d",
            Filter {
                tag: Some(notifications::TAG_AUTO_RULES),
                ..base.clone()
            },
        ),
    ];
    let mut indexed = Vec::new();
    for (name, f) in &cases {
        indexed.push((*name, timed(db, f, args.iterations).await?));
    }
    for (name, _) in INDEXES {
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP INDEX {name}")))
            .execute(&db.pool)
            .await?;
    }
    analyze(db).await?;
    let mut bare = Vec::new();
    for (name, f) in &cases {
        bare.push((*name, timed(db, f, args.iterations).await?));
    }
    for (_, create) in INDEXES {
        sqlx::query(sqlx::AssertSqlSafe(*create))
            .execute(&db.pool)
            .await?;
    }
    analyze(db).await?;
    let mut out = Vec::new();
    for ((name, (p50, p95, total)), (_, (b50, b95, b_total))) in indexed.into_iter().zip(bare) {
        anyhow::ensure!(total == b_total, "{name}: {total} vs {b_total} unindexed");
        let ratio = b95 / p95;
        let line = json!({
            "backend": backend, "case": name, "changes": args.changes,
            "notifications": seeded.notifications, "total": total,
            "p50_ms": (p50 * 10.0).round() / 10.0, "p95_ms": (p95 * 10.0).round() / 10.0,
            "unindexed_p50_ms": (b50 * 10.0).round() / 10.0,
            "unindexed_p95_ms": (b95 * 10.0).round() / 10.0,
            "unindexed_to_indexed_p95": (ratio * 10.0).round() / 10.0,
        });
        if args.json {
            println!("{line}");
        } else {
            say(&format!(
                "{name:<20} p50 {p50:>6.1} ms  p95 {p95:>6.1} ms  | unindexed p50 {b50:>7.1} ms  p95 {b95:>7.1} ms  ({ratio:.1}×)  total {total}  target ≤ 50 ms p95: {}",
                if p95 <= 50.0 { "met" } else { "NOT met" }
            ));
        }
        out.push(line);
    }
    Ok(out)
}

/// Runs the benchmark.
pub async fn run_bench(args: ActivityBenchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.days >= 31, "--days must be more than the 30-day view");
    let scratch = crate::scratch::Scratch {
        name: format!("activity_{}", std::process::id()),
        sqlite: !args.no_sqlite,
        postgres: args.database_url.as_deref(),
        keep: false,
        quiet: args.json,
    };
    let args = &args;
    crate::scratch::each_backend(&scratch, |backend, db| async move {
        bench_backend(backend, &db, args).await
    })
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole benchmark at a tiny scale, on SQLite and on PostgreSQL when configured: the
    /// pages read the same totals with and without the indexes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_and_checks_itself_at_a_small_scale() {
        run_bench(ActivityBenchArgs {
            database_url: searchdeck_common::test_support::backend_url("TEST_DATABASE_URL"),
            changes: 3_000,
            days: 60,
            iterations: 1,
            no_sqlite: false,
            json: true,
        })
        .await
        .unwrap();
    }
}
