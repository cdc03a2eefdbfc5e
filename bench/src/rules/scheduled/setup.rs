//! The scheduled part's setup (not timed): one key-pair connection to the sandbox with
//! `--accounts` of the agency world's ad accounts selected, their entities stored by the
//! real `sync-account` handler run inline and their metrics marked synced, then the rules,
//! each due in the current hour.

use std::{
    collections::{BTreeMap, BTreeSet},
    time::Instant,
};

use anyhow::Context as _;
use searchdeck_common::{Db, ids, jobs::SyncAccount, queue::Queue, rules::Rule, store};
use searchdeck_sandbox::{AGENCY_CAMPAIGNS, Sandbox};
use searchdeck_workers::{Handler, JobContext, JobRun, Runtime, sandbox_account};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ScheduledArgs;

/// The benchmark's rule `n`: every ad group's default bid up by 1 %, hourly (attached to its
/// campaign by the caller).
fn rule(n: usize, account_id: &str, org_id: i64, created: i64) -> Rule {
    let mut rule: Rule = serde_json::from_value(json!({
        "name": format!("Bench rule {n}"),
        "accountId": account_id,
        "orgId": org_id.to_string(),
        "level": "ADGROUPS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "status", "values": ["ENABLED", "PAUSED"]}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "hourly"},
        "actions": [{"type": "changeBid", "by": "PERCENT", "value": "1"}]
    }))
    .expect("the benchmark's rule reads");
    rule.id = ids::new_id();
    rule.created_at = created;
    rule.updated_at = created;
    rule
}

/// The connection, its selected ad accounts (org id, org key) and the rules, stored.
pub(super) struct Setup {
    pub(super) orgs: Vec<(i64, i64)>,
    pub(super) rules: usize,
}

/// Stores the connection, its ad accounts' entities and the rules on `db`.
pub(super) async fn set_up(
    args: &ScheduledArgs,
    db: &Db,
    sandbox: &Sandbox,
    base: &str,
    config: &searchdeck_common::Config,
    setup_queue: Queue,
    say: &dyn Fn(&str),
) -> anyhow::Result<Setup> {
    let runtime = Runtime::new(config, db.clone(), setup_queue).await?;
    let key = sandbox_account::register_key(&reqwest::Client::new(), base).await?;
    let account_id = sandbox_account::connect(db, &runtime.secrets, base, &key).await?;
    // The agency world's added ad accounts (20 campaigns each), the first `--accounts`.
    let chosen: BTreeSet<i64> = {
        let world = sandbox.world.read();
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for c in world.campaigns.values() {
            *counts.entry(c.ad_account_id).or_default() += 1;
        }
        counts
            .into_iter()
            .filter(|(_, n)| *n == AGENCY_CAMPAIGNS)
            .map(|(a, _)| a)
            .take(args.accounts)
            .collect()
    };
    anyhow::ensure!(
        chosen.len() == args.accounts,
        "the sandbox has {} ad accounts of {AGENCY_CAMPAIGNS} campaigns, not {}",
        chosen.len(),
        args.accounts
    );
    for org in store::accounts::orgs(&db.pool, &account_id).await? {
        let selected = chosen.contains(&org.org_id);
        store::accounts::select_org(&db.pool, &account_id, org.org_id, selected).await?;
    }
    let started = Instant::now();
    let run = JobRun {
        runtime: runtime.clone(),
        run_id: ids::new_id(),
        job_id: ids::new_id(),
        attempt: 1,
        worker: "bench".into(),
        task_id: None,
        cancel: CancellationToken::new(),
    };
    let job = SyncAccount {
        account_id: account_id.clone(),
    };
    Handler::run(&job, &JobContext::<SyncAccount>::new(run))
        .await
        .map_err(|e| anyhow::anyhow!("the entity sync failed: {e:?}"))?;
    say(&format!(
        "entities of {} ad accounts synced in {:.1} s",
        chosen.len(),
        started.elapsed().as_secs_f64()
    ));
    let now = ids::now_ms() / 1000;
    let created = now - 2 * 3600;
    let workspace = store::accounts::by_id(&db.pool, &account_id)
        .await?
        .context("the stored connection")?
        .workspace_id;
    let mut orgs = Vec::new();
    let mut campaigns = Vec::new();
    for org in store::synced::orgs_of(&db.pool, &account_id).await? {
        if !chosen.contains(&org.org_id) {
            continue;
        }
        // The metrics count as synced now: the rules read no metric, and a run whose window
        // is complete sends nothing but its changes. As a finished sync records them: stored
        // through the ad account's today in its own time zone (a day in progress), so
        // complete through its yesterday. (A UTC today left a zone ahead of UTC, such as
        // Asia/Tokyo in the UTC evening, a day short: each run then synced the reports
        // inline first and the timed run did not end.)
        let today = searchdeck_common::zones::today(now, org.time_zone.as_deref());
        let (from, through) = (
            (today - time::Duration::days(30)).to_string(),
            today.to_string(),
        );
        store::synced::set_metrics_synced(&db.pool, org.org_key, &from, &through, now, "bench")
            .await?;
        campaigns.push(store::synced::campaign_ids(&db.pool, org.org_key).await?);
        orgs.push((org.org_id, org.org_key));
    }
    anyhow::ensure!(
        orgs.len() == args.accounts,
        "{} ad accounts synced",
        orgs.len()
    );
    let mut tx = db.pool.begin().await?;
    for n in 0..args.rules {
        let a = n % orgs.len();
        let of_account = &campaigns[a];
        anyhow::ensure!(
            !of_account.is_empty(),
            "ad account {} has no campaigns",
            orgs[a].0
        );
        let campaign = of_account[(n / orgs.len()) % of_account.len()];
        let rule = rule(n, &account_id, orgs[a].0, created);
        store::rules::insert(&mut *tx, &workspace, None, &rule, orgs[a].0).await?;
        store::rules::attach(&mut *tx, &rule.id, campaign, created).await?;
    }
    tx.commit().await?;
    if args.rules > orgs.len() * AGENCY_CAMPAIGNS {
        say("more rules than campaigns: some campaigns have several rules, whose changes race");
    }
    Ok(Setup {
        orgs,
        rules: args.rules,
    })
}
