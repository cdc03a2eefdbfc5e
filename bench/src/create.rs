//! `searchdeck bench create`: campaign creation (issue 23, "Performance") end to end against
//! the sandbox, served in-process over loopback with latency added to every Apple call:
//! 3 campaigns × 4 ad groups × 100 keywords plus the discovery campaign, run once by a
//! `create-campaigns` job on an in-process worker pool (wall time, Apple calls against the
//! minimum the v1 endpoints allow: one create per campaign and ad group, one keyword call
//! per ad group per 1,000 keywords, one negatives call for the discovery campaign), then
//! again by worker processes (`searchdeck worker`), the first SIGKILLed mid keywords: the
//! extra calls the resumed run made. Calls are counted at the sandbox (`/v1` requests).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use searchdeck_common::{
    Db,
    jobs::{
        CreateCampaigns, CreationPlan, CreationScope, PlannedCampaign, PlannedDiscovery,
        PlannedGroup, PlannedKeyword,
    },
    queue::Queue,
    store,
    tasks::{NewTask, create_with_job},
};
use searchdeck_provider::Entity;
use searchdeck_sandbox::{FaultConfig, Sandbox, SandboxConfig, WorldConfig, WorldSize};
use searchdeck_workers::{Runtime, sandbox_account};

/// Options of `searchdeck bench create`.
#[derive(Debug, Clone, clap::Args)]
pub struct CreateBenchArgs {
    /// Seed of the sandbox's (small) world.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Latency the sandbox adds to every Apple call, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub latency_ms: u64,
    #[arg(long, default_value_t = 3)]
    pub campaigns: usize,
    #[arg(long, default_value_t = 4)]
    pub groups: usize,
    #[arg(long, default_value_t = 100)]
    pub keywords: usize,
    /// Skip the run killed mid keywords.
    #[arg(long)]
    pub no_kill: bool,
}

fn plan(args: &CreateBenchArgs, tag: &str, adam_id: i64, country: &str) -> CreationPlan {
    let campaigns = (0..args.campaigns)
        .map(|c| PlannedCampaign {
            name: format!("Bench {tag} campaign {c}"),
            existing_id: None,
            countries: vec![country.into()],
            adam_id: None,
            status: "PAUSED".into(),
            daily_budget_micros: 50_000_000,
            negatives: vec![],
            groups: (0..args.groups)
                .map(|g| PlannedGroup {
                    name: format!("Group {g}"),
                    default_bid_micros: 1_000_000,
                    cpa_goal_micros: None,
                    automated_keywords_opt_in: false,
                    status: None,
                    targeting: None,
                    keywords: (0..args.keywords)
                        .map(|k| PlannedKeyword {
                            text: format!("bench {tag} c{c} g{g} word {k}"),
                            match_type: "EXACT".into(),
                            bid_micros: None,
                            status: None,
                        })
                        .collect(),
                    negatives: vec![],
                    creative_ids: vec![],
                })
                .collect(),
        })
        .collect();
    CreationPlan {
        adam_id,
        campaigns,
        discovery: Some(PlannedDiscovery {
            name: format!("Bench {tag} discovery"),
            countries: vec![country.into()],
            daily_budget_micros: 20_000_000,
            default_bid_micros: 1_000_000,
            cpa_goal_micros: None,
        }),
        product_page_id: None,
    }
}

/// The fewest Apple calls `plan` can take.
fn minimum(plan: &CreationPlan) -> u64 {
    let chunks = |n: usize| n.div_ceil(1000) as u64;
    let mut calls = 0;
    let mut all = 0;
    for c in &plan.campaigns {
        calls += 1;
        for g in &c.groups {
            calls += 1 + chunks(g.keywords.len());
            all += g.keywords.len();
        }
    }
    calls + 3 * u64::from(plan.discovery.is_some()) + chunks(all).saturating_sub(1)
}

/// Runs the benchmark and prints its figures.
pub async fn run(args: CreateBenchArgs) -> anyhow::Result<()> {
    let sandbox = Sandbox::open(SandboxConfig {
        world: WorldConfig {
            seed: args.seed,
            size: WorldSize::Small,
            today: None,
        },
        faults: FaultConfig {
            latency_ms: args.latency_ms,
            ..Default::default()
        },
        ..SandboxConfig::default()
    })?;
    let calls = Arc::new(AtomicU64::new(0));
    let counted = calls.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = searchdeck_sandbox::app(Arc::clone(&sandbox)).layer(axum::middleware::from_fn(
        move |req: axum::extract::Request, next: axum::middleware::Next| {
            if req.uri().path().starts_with("/v1/") {
                counted.fetch_add(1, Ordering::Relaxed);
            }
            next.run(req)
        },
    ));
    tokio::spawn(async move { axum::serve(listener, app).await });
    let dir = std::env::temp_dir().join(format!("searchdeck-bench-create-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = run_with(&args, &base, &dir, &calls).await;
    std::fs::remove_dir_all(&dir).ok();
    result
}

async fn run_with(
    args: &CreateBenchArgs,
    base: &str,
    dir: &std::path::Path,
    calls: &AtomicU64,
) -> anyhow::Result<()> {
    let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
    let config = crate::scratch::worker_config(dir, &url, &url, base)?;
    let db = Db::connect(&config).await?;
    db.migrate().await?;
    let queue = Queue::connect(&config).await?;
    let runtime = Runtime::new(&config, db.clone(), queue.clone()).await?;
    let http = reqwest::Client::new();
    let key = sandbox_account::register_key(&http, base).await?;
    let account_id = sandbox_account::connect(&db, &runtime.secrets, base, &key).await?;
    let account = store::accounts::by_id(&db.pool, &account_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the stored connection is gone"))?;
    let ads = runtime
        .provider_for(&account)
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    // A USD ad account and an app it promotes, in a country of its campaign.
    let mut found = None;
    for (org_id, _) in searchdeck_provider::AppleAdsExt::ad_accounts(ads.as_ref()).await? {
        let currency = ads.ad_account(org_id).await?.currency;
        if currency.as_deref() != Some("USD") {
            continue;
        }
        let page = ads
            .query_json(
                org_id,
                Entity::Campaigns,
                &json!({"pagination": {"offset": 0, "pageSize": 1}}),
            )
            .await?;
        if let Some(c) = page.items.first() {
            let adam: i64 = c["promotedObjectId"].as_str().unwrap_or("0").parse()?;
            let country = c["targeting"]["countryOrRegion"]["include"][0]
                .as_str()
                .unwrap_or("US")
                .to_string();
            found = Some((org_id, adam, country));
            break;
        }
    }
    let (org_id, adam_id, country) =
        found.ok_or_else(|| anyhow::anyhow!("no USD ad account with a campaign"))?;
    let org_key =
        store::synced::ensure_org(&db.pool, &account_id, org_id, Some("USD"), None).await?;
    let workspace: String = sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
        .bind(&account_id)
        .fetch_one(&db.pool)
        .await?;
    let scope = CreationScope {
        workspace_id: workspace.clone(),
        user_id: None,
        account_id: account_id.clone(),
        org_key,
        org_id,
        currency: "USD".into(),
    };
    let enqueue = |tag: &str| {
        let plan = plan(args, tag, adam_id, &country);
        let job = CreateCampaigns {
            scope: scope.clone(),
            plan: plan.clone(),
        };
        let db = db.clone();
        let workspace = workspace.clone();
        async move {
            let task = create_with_job(
                &db,
                NewTask {
                    workspace_id: &workspace,
                    user_id: None,
                    kind: "create-campaigns",
                    message: "Creating campaigns...",
                    total_steps: 1,
                    account_id: None,
                    org_id: None,
                },
                &job,
            )
            .await?;
            anyhow::Ok((task, plan))
        }
    };
    let finished = |task: String| {
        let db = db.clone();
        async move {
            loop {
                let row: (i64, Option<String>, String) =
                    sqlx::query_as("SELECT finish, error, progress FROM tasks WHERE id = $1")
                        .bind(&task)
                        .fetch_one(&db.pool)
                        .await?;
                if row.0 == 1 {
                    if let Some(e) = row.1 {
                        anyhow::bail!("the creation failed: {e}: {}", row.2);
                    }
                    return anyhow::Ok(serde_json::from_str::<Value>(&row.2)?);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };

    // One uninterrupted run on an in-process pool.
    let (task, plan_a) = enqueue("A").await?;
    let min = minimum(&plan_a);
    let before = calls.load(Ordering::Relaxed);
    let started = Instant::now();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let pool = tokio::spawn(searchdeck_workers::run_on(runtime.clone(), 2, async move {
        let _ = stopped.await;
    }));
    let d = finished(task).await?;
    let wall = started.elapsed();
    let made = calls.load(Ordering::Relaxed) - before;
    let _ = stop.send(());
    pool.await??;
    println!(
        "create: {} campaigns × {} ad groups × {} keywords + discovery, latency {} ms",
        args.campaigns, args.groups, args.keywords, args.latency_ms
    );
    println!(
        "  uninterrupted: wall {:.2} s, Apple calls {made} (minimum {min}), keywords {}",
        wall.as_secs_f64(),
        d["keywordsCreated"]
    );
    if args.no_kill {
        return Ok(());
    }

    // Worker processes: the first killed once half the ad groups have their keywords.
    let exe = std::env::current_exe()?;
    let spawn = || {
        std::process::Command::new(&exe)
            .arg("worker")
            .env("DATABASE_URL", &url)
            .env("QUEUE_URL", &url)
            .env("SEARCHDECK_DATA_DIR", dir)
            .env("PROVIDER_BASE_URL", base)
            .env_remove("REDIS_URL")
            .env("SEARCHDECK_QUEUE_POLL_MS", "50")
            .env("SEARCHDECK_QUEUE_HEARTBEAT_MS", "1000")
            .env("SEARCHDECK_QUEUE_MISSED_HEARTBEATS", "2")
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .spawn()
    };
    let (task, plan_b) = enqueue("B").await?;
    let job_id: String = sqlx::query_scalar("SELECT id FROM job_outbox WHERE task_id = $1")
        .bind(&task)
        .fetch_one(&db.pool)
        .await?;
    // The outbox is relayed by the worker processes.
    let half = (args.campaigns * args.groups / 2) as i64;
    let before = calls.load(Ordering::Relaxed);
    let started = Instant::now();
    let mut first = spawn()?;
    loop {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM creation_entities WHERE job_id = $1 AND natural_key LIKE 'k:%'",
        )
        .bind(&job_id)
        .fetch_one(&db.pool)
        .await?;
        if n >= half {
            break;
        }
        if started.elapsed() > Duration::from_secs(600) {
            anyhow::bail!("the killed run did not reach half its keywords");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    first.kill()?;
    first.wait()?;
    let mut second = spawn()?;
    let d = finished(task).await;
    second.kill().ok();
    second.wait().ok();
    let d = d?;
    let made = calls.load(Ordering::Relaxed) - before;
    println!(
        "  killed mid keywords and resumed: wall {:.2} s, Apple calls {made} (minimum {}), extra {}, keywords {}",
        started.elapsed().as_secs_f64(),
        minimum(&plan_b),
        made as i64 - minimum(&plan_b) as i64,
        d["keywordsCreated"]
    );
    Ok(())
}
