//! The seeded workspace: one member, one connection over 50 campaign groups, and
//! `--changes` change records over `--days` days grouped into notifications as real use
//! makes them, with the member's read state (everything older than 30 days read, a tenth
//! of the rest read one by one).

use std::time::Instant;

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store,
};

use super::rows::{
    CAMPAIGNS, CHANGE_COLUMNS, GROUPS, NOTIFICATION_COLUMNS, Rng, Val, insert, kind,
};
use super::{ActivityBenchArgs, analyze};

/// The seeded workspace: its id and member, and "now".
pub(super) struct Seeded {
    pub(super) workspace_id: String,
    pub(super) user_id: String,
    pub(super) now: i64,
    pub(super) notifications: i64,
}

fn campaign_name(group: i64, campaign: i64) -> String {
    const KINDS: [&str; 4] = ["Brand", "Generic", "Competitor", "Discovery"];
    format!(
        "G{group} — {} {campaign}",
        KINDS[(campaign % KINDS.len() as i64) as usize]
    )
}

/// Seeds the workspace (see the module doc).
pub(super) async fn seed(
    db: &Db,
    args: &ActivityBenchArgs,
    say: &dyn Fn(&str),
) -> anyhow::Result<Seeded> {
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
