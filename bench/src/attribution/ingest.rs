//! The ingest part of `bench attribution`: `--events` Adjust callbacks (half installs of
//! the seeded keywords, half a purchase of one of those installs a day later), each sent
//! **twice** — the provider's retries arriving beside the originals — `--concurrency` at a
//! time, each read by Adjust's adapter and stored by the real ingest in its own
//! transaction (`attribution::ingest`), then replayed whole. Checked: every event stored
//! exactly once, every copy counted a duplicate, the facts' installs grown by exactly the
//! installs sent. Baseline in the same run: the same events stored alone (one idempotent
//! `INSERT` a transaction, no adapter, no install lookup, no facts, no names), at the same
//! concurrency.

use std::time::Instant;

use futures::{StreamExt, stream};
use time::Duration as Days;

use searchdeck_common::{
    Db,
    attribution::{INSTALL_EVENT, Provider, adapters, ingest},
    ids::{new_id, now_ms},
    store::{
        self,
        attribution::{events::StoredEvent, integrations::Token},
        report_facts::FactLevel,
    },
};

use super::AttributionBenchArgs;
use crate::reports::{Seeded, mix};

/// What the ingest part measured.
pub(super) struct Measured {
    /// Postbacks handled per second (originals and their copies), and unique events stored
    /// per second, in the first pass.
    pub(super) postbacks_per_s: f64,
    pub(super) stored_per_s: f64,
    /// Replays handled per second (every one a duplicate).
    pub(super) replays_per_s: f64,
    /// The baseline's events per second.
    pub(super) baseline_per_s: f64,
}

/// `template` with each `{macro}` replaced by its value, the others left empty.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}').map(|c| c + open) else {
            break;
        };
        let name = &rest[open + 1..close];
        if let Some((_, v)) = values.iter().find(|(k, _)| *k == name) {
            // The values are digits, letters, '-', '.' and spaces.
            out.push_str(&v.replace(' ', "%20"));
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The query strings of the `n` callbacks over `keywords` seeded keywords, installs on the
/// seeded days.
fn callbacks(seeded: &Seeded, keywords: i64, n: usize) -> Vec<String> {
    let setup = adapters::setup(
        Provider::Adjust,
        "https://bench.invalid/api/attribution/postbacks/adjust/t",
    );
    let template = setup.url.split_once('?').map_or("", |(_, q)| q).to_string();
    let base = (seeded.last - Days::days(20))
        .midnight()
        .assume_utc()
        .unix_timestamp();
    (0..n)
        .map(|i| {
            let pair = (i / 2) as i64;
            let k = (mix(pair, 7, 45) % keywords as u64) as i64;
            let group = 100_000 + k / 100;
            let campaign = 1_000 + k / 1_000;
            let installed = base + (pair % 20) * 86_400 + (pair % 3_600);
            let install = i % 2 == 0;
            let at = if install {
                installed
            } else {
                installed + 86_400
            };
            fill(
                &template,
                &[
                    (
                        "activity_kind",
                        if install { "install" } else { "event" }.into(),
                    ),
                    (
                        "event_name",
                        if install {
                            String::new()
                        } else {
                            "purchase".into()
                        },
                    ),
                    ("network_name", "Apple Search Ads".into()),
                    ("app_id", "900".into()),
                    ("iad_org_id", "1".into()),
                    ("iad_campaign_id", campaign.to_string()),
                    ("iad_adgroup_id", group.to_string()),
                    ("iad_keyword_id", (10_000_000 + k).to_string()),
                    ("iad_conversion_type", "Download".into()),
                    ("country", "us".into()),
                    (
                        "revenue_float",
                        if install {
                            String::new()
                        } else {
                            "4.99".into()
                        },
                    ),
                    (
                        "currency",
                        if install { String::new() } else { "USD".into() },
                    ),
                    ("created_at", at.to_string()),
                    ("installed_at", installed.to_string()),
                    ("adid", format!("bench-device-{pair}")),
                ],
            )
        })
        .collect()
}

/// Sends `queries` through the adapter and the ingest, `concurrency` at a time: (stored,
/// duplicates, seconds).
async fn send(
    db: &Db,
    workspace: &str,
    integration: &str,
    queries: &[String],
    concurrency: usize,
) -> anyhow::Result<(usize, usize, f64)> {
    let started = Instant::now();
    let results: Vec<anyhow::Result<ingest::Ingested>> = stream::iter(queries)
        .map(|q| async move {
            let parsed = adapters::parse(
                Provider::Adjust,
                &adapters::Postback {
                    query: q,
                    content_type: None,
                    body: &[],
                },
            )
            .map_err(|e| anyhow::anyhow!("a callback did not read: {e:?}"))?;
            Ok(ingest::ingest(db, workspace, integration, &parsed.events, false, now_ms()).await?)
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    let seconds = started.elapsed().as_secs_f64();
    let (mut stored, mut duplicates) = (0, 0);
    for r in results {
        let r = r?;
        stored += r.stored;
        duplicates += r.duplicates;
    }
    Ok((stored, duplicates, seconds))
}

/// The facts' installs of the seeded keywords.
async fn installs(db: &Db, workspace: &str) -> anyhow::Result<i64> {
    let n: Option<i64> = sqlx::query_scalar(
        "SELECT CAST(SUM(events) AS BIGINT) FROM attribution_facts \
         WHERE workspace_id = $1 AND level = $2 AND event_name = $3",
    )
    .bind(workspace)
    .bind(FactLevel::Keyword.code())
    .bind(INSTALL_EVENT)
    .fetch_one(&db.pool)
    .await?;
    Ok(n.unwrap_or(0))
}

/// The baseline: `n` events stored alone, one idempotent insert a transaction.
async fn baseline(db: &Db, workspace: &str, n: usize, concurrency: usize) -> anyhow::Result<f64> {
    let now = now_ms();
    let started = Instant::now();
    let results: Vec<anyhow::Result<bool>> = stream::iter(0..n)
        .map(|i| async move {
            let e = StoredEvent {
                provider: "custom".into(),
                dedupe_id: format!("baseline-{i}"),
                kind: "install".into(),
                event_name: INSTALL_EVENT.into(),
                adam_id: Some(900),
                org_id: Some(1),
                campaign_id: Some(1_000),
                ad_group_id: Some(100_000),
                keyword_id: Some(10_000_000),
                ad_id: None,
                claim_type: Some("Click".into()),
                conversion_type: Some("Download".into()),
                placement: None,
                country: Some("US".into()),
                revenue_micros: None,
                currency: None,
                event_at: now,
                install_at: now,
                install_day: "2026-11-20".into(),
                device_id: Some(format!("baseline-{i}")),
                test: false,
                received_at: now,
            };
            let mut tx = db.begin_write().await?;
            let stored = store::attribution::events::insert(&mut *tx, workspace, &e).await?;
            tx.commit().await?;
            Ok(stored)
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    let seconds = started.elapsed().as_secs_f64();
    let stored = results.into_iter().collect::<anyhow::Result<Vec<bool>>>()?;
    anyhow::ensure!(stored.iter().all(|s| *s), "the baseline stored every event");
    sqlx::query("DELETE FROM attribution_events WHERE workspace_id = $1 AND provider = 'custom'")
        .bind(workspace)
        .execute(&db.pool)
        .await?;
    Ok(n as f64 / seconds)
}

/// Times the ingest on `db` (module docs).
pub(super) async fn bench_ingest(
    db: &Db,
    seeded: &Seeded,
    args: &AttributionBenchArgs,
) -> anyhow::Result<Measured> {
    let workspace = seeded.ctx.workspace_id.as_str();
    sqlx::query("DELETE FROM attribution_events WHERE workspace_id = $1")
        .bind(workspace)
        .execute(&db.pool)
        .await?;
    let token = new_id();
    let integration = store::attribution::integrations::upsert(
        &db.pool,
        &new_id(),
        workspace,
        "adjust",
        &Token {
            hash: &token,
            hint: "bench",
            secret_sealed: None,
        },
        "bench",
        now_ms(),
    )
    .await?;
    let n = args.events.max(2) / 2 * 2;
    let queries = callbacks(seeded, args.keywords, n);
    // Each callback twice, the copy right behind its original.
    let twice: Vec<String> = queries
        .iter()
        .flat_map(|q| [q.clone(), q.clone()])
        .collect();
    let before = installs(db, workspace).await?;
    let (stored, duplicates, seconds) =
        send(db, workspace, &integration, &twice, args.concurrency).await?;
    anyhow::ensure!(
        (stored, duplicates) == (n, n),
        "stored {stored} and counted {duplicates} duplicates of {n} events sent twice"
    );
    let (again, replayed, replay_seconds) =
        send(db, workspace, &integration, &queries, args.concurrency).await?;
    anyhow::ensure!(
        (again, replayed) == (0, n),
        "a replay stored {again} and counted {replayed} duplicates of {n}"
    );
    let rows: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM attribution_events WHERE workspace_id = $1")
            .bind(workspace)
            .fetch_one(&db.pool)
            .await?;
    let grown = installs(db, workspace).await? - before;
    anyhow::ensure!(
        rows == n as i64 && grown == (n / 2) as i64,
        "{rows} events stored and the installs grew by {grown}, for {n} events of which {} installs",
        n / 2
    );
    let baseline_per_s = baseline(db, workspace, n, args.concurrency).await?;
    Ok(Measured {
        postbacks_per_s: (2 * n) as f64 / seconds,
        stored_per_s: n as f64 / seconds,
        replays_per_s: n as f64 / replay_seconds,
        baseline_per_s,
    })
}
