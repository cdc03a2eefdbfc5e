//! `create-campaigns` interrupted by a killed worker (issue 23): a worker process (the real
//! worker code in the test worker binary) is SIGKILLed at five points of one creation —
//! after the first campaign, mid ad groups, mid keywords, mid discovery negatives, mid ads —
//! while every Apple call is slowed by the sandbox's latency fault; another worker takes the
//! job over, and the sandbox ends holding every campaign, ad group, keyword, negative and ad
//! exactly once (queried with the deleted ones) and nothing missing. A last run loses
//! answers after Apple applied the write (the sandbox's injected 5xx, half of them after
//! the handler ran) and ends the same.

use std::collections::HashSet;
use std::time::Duration;

use searchdeck_common::{
    jobs::{
        CreateCampaigns, CreationPlan, CreationScope, PlannedCampaign, PlannedDiscovery,
        PlannedGroup, PlannedKeyword, PlannedNegative,
    },
    queue::outbox,
    tasks::{NewTask, create_with_job_ids},
};
use searchdeck_provider::{AppleAds, Client, ClientConfig, Credentials, Entity};
use serde_json::{Value, json};

use crate::support::{Kind, TestEnv, eventually, signal};
use crate::sync::{Connected, connected, entity_sync_done, start_sync};

const CAMPAIGNS: usize = 2;
const GROUPS: usize = 3;
const KEYWORDS: usize = 30;

/// Where a worker is killed: a test over the keys the job has recorded so far.
#[derive(Debug, Clone, Copy)]
enum Point {
    AfterCampaign,
    MidAdGroups,
    MidKeywords,
    MidDiscoveryNegatives,
    MidAds,
    /// Not killed: answers lost after the write instead.
    LostAnswers,
}

fn plan(tag: &str, adam_id: i64, country: &str, page: &str) -> CreationPlan {
    let campaigns = (0..CAMPAIGNS)
        .map(|c| PlannedCampaign {
            name: format!("{tag} campaign {c}"),
            existing_id: None,
            countries: vec![country.into()],
            adam_id: None,
            status: "PAUSED".into(),
            daily_budget_micros: 50_000_000,
            negatives: vec![
                PlannedNegative {
                    text: "free".into(),
                    match_type: "EXACT".into(),
                },
                PlannedNegative {
                    text: "cheap".into(),
                    match_type: "BROAD".into(),
                },
            ],
            groups: (0..GROUPS)
                .map(|g| PlannedGroup {
                    name: format!("Group {g}"),
                    default_bid_micros: 1_000_000,
                    cpa_goal_micros: Some(5_000_000),
                    automated_keywords_opt_in: false,
                    status: None,
                    targeting: None,
                    keywords: (0..KEYWORDS)
                        .map(|k| PlannedKeyword {
                            text: format!("{tag} c{c} g{g} word {k}"),
                            match_type: if g == 1 { "BROAD" } else { "EXACT" }.into(),
                            bid_micros: (k % 2 == 0).then_some(1_200_000),
                            status: None,
                        })
                        .collect(),
                    negatives: vec![PlannedNegative {
                        text: "download".into(),
                        match_type: "EXACT".into(),
                    }],
                    creative_ids: vec![],
                })
                .collect(),
        })
        .collect();
    CreationPlan {
        adam_id,
        campaigns,
        discovery: Some(PlannedDiscovery {
            name: format!("{tag} discovery"),
            countries: vec![country.into()],
            daily_budget_micros: 20_000_000,
            default_bid_micros: 1_000_000,
            cpa_goal_micros: None,
        }),
        product_page_id: Some(page.to_string()),
    }
}

/// Whether the recorded `keys` show the job at `point`.
fn at(point: Point, keys: &[String], tag: &str) -> bool {
    let n = |prefix: &str| keys.iter().filter(|k| k.starts_with(prefix)).count();
    let groups = CAMPAIGNS * GROUPS;
    match point {
        Point::AfterCampaign => n("c:") == 1 && n("g:") == 0,
        Point::MidAdGroups => (2..groups).contains(&n("g:")) && n("c:") <= CAMPAIGNS,
        Point::MidKeywords => (3..groups).contains(&n("k:")),
        Point::MidDiscoveryNegatives => {
            keys.iter().any(|k| k == &format!("c:{tag} discovery"))
                && n("g:") == groups + 1
                && n("ng:") == groups
        }
        Point::MidAds => (1..groups + 1).contains(&n("a:")),
        Point::LostAnswers => false,
    }
}

async fn recorded(env: &TestEnv, job_id: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT natural_key FROM creation_entities WHERE job_id = $1")
        .bind(job_id)
        .fetch_all(&env.db.pool)
        .await
        .unwrap()
}

async fn faults(http: &reqwest::Client, sandbox: &str, body: Value) {
    let res = http
        .put(format!("{sandbox}/sandbox/faults"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
}

/// Every live-or-deleted `entity` whose `field` is `id`, at the sandbox.
async fn all(client: &Client, org: i64, entity: Entity, field: &str, id: i64) -> Vec<Value> {
    let query = json!({
        "filters": [{ "field": field, "operator": "EQUALS", "value": [id] }],
        "pagination": { "offset": 0, "pageSize": 1000 },
    });
    client.query_json(org, entity, &query).await.unwrap().items
}

/// The sandbox holds the plan exactly once: each campaign, ad group, keyword, negative and
/// ad one time (deleted ones included), nothing missing.
async fn exactly_once(client: &Client, org: i64, plan: &CreationPlan) {
    let named = |name: &str| {
        json!({
            "filters": [{ "field": "name", "operator": "EQUALS", "value": [name] }],
            "pagination": { "offset": 0, "pageSize": 10 },
        })
    };
    let mut every_keyword = HashSet::new();
    let check_campaign =
        async |name: &str, groups: Vec<(String, usize, usize)>, negatives: usize| {
            let found = client
                .query_json(org, Entity::Campaigns, &named(name))
                .await
                .unwrap()
                .items;
            assert_eq!(found.len(), 1, "campaign {name} once: {found:?}");
            let id = found[0]["id"].as_i64().unwrap();
            let ad_groups = all(client, org, Entity::AdGroups, "campaignId", id).await;
            assert_eq!(ad_groups.len(), groups.len(), "ad groups of {name}");
            let keywords = all(client, org, Entity::Keywords, "campaignId", id).await;
            let negs = all(client, org, Entity::NegativeKeywords, "campaignId", id).await;
            let ads = all(client, org, Entity::Ads, "campaignId", id).await;
            for (group, n_keywords, n_negatives) in groups {
                let g: Vec<&Value> = ad_groups
                    .iter()
                    .filter(|g| g["name"] == json!(group))
                    .collect();
                assert_eq!(g.len(), 1, "ad group {group} of {name} once");
                let gid = g[0]["id"].as_i64();
                let k: Vec<&Value> = keywords
                    .iter()
                    .filter(|k| k["adGroupId"].as_i64() == gid)
                    .collect();
                assert_eq!(k.len(), n_keywords, "keywords of {name}/{group}");
                let texts: HashSet<&str> = k.iter().map(|k| k["text"].as_str().unwrap()).collect();
                assert_eq!(
                    texts.len(),
                    n_keywords,
                    "no keyword twice in {name}/{group}"
                );
                let n = negs
                    .iter()
                    .filter(|n| n["adGroupId"].as_i64() == gid)
                    .count();
                assert_eq!(n, n_negatives, "negatives of {name}/{group}");
                let a = ads
                    .iter()
                    .filter(|a| a["adGroupId"].as_i64() == gid)
                    .count();
                assert_eq!(a, 1, "one product page ad in {name}/{group}");
            }
            let campaign_level = negs.iter().filter(|n| n["adGroupId"].is_null()).count();
            assert_eq!(campaign_level, negatives, "campaign negatives of {name}");
        };
    for c in &plan.campaigns {
        for g in &c.groups {
            every_keyword.extend(g.keywords.iter().map(|k| k.text.clone()));
        }
        let groups = c
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.keywords.len(), g.negatives.len()))
            .collect();
        check_campaign(&c.name, groups, c.negatives.len()).await;
    }
    let d = plan.discovery.as_ref().unwrap();
    check_campaign(&d.name, vec![("General".into(), 0, every_keyword.len())], 0).await;
}

async fn killed_at_every_point(kind: Kind) {
    let Some(Connected {
        sandbox,
        env,
        http,
        key,
        account,
    }) = connected(kind).await
    else {
        return;
    };
    let mut worker = env.spawn_worker(&[]);
    start_sync(&env, &account).await;
    entity_sync_done(&env).await;
    let (org_key, org_id, workspace, adam_id, countries): (i64, i64, String, i64, String) =
        sqlx::query_as(
            "SELECT o.org_key, o.org_id, a.workspace_id, c.adam_id, c.countries FROM sync_orgs o \
         JOIN accounts a ON a.id = o.account_id JOIN asa_campaigns c ON c.org_key = o.org_key \
         WHERE o.account_id = $1 AND o.currency = 'USD' AND c.adam_id IS NOT NULL \
         AND c.countries IS NOT NULL ORDER BY o.org_id, c.adam_id LIMIT 1",
        )
        .bind(&account)
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    let page: String = sqlx::query_scalar(
        "SELECT id FROM asa_product_pages WHERE org_key = $1 AND adam_id = $2 AND name LIKE '%Seasonal offer'",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();
    let country: String = serde_json::from_str::<Vec<String>>(&countries).unwrap()[0].clone();
    let client = Client::new(
        ClientConfig::sandbox(&sandbox),
        Credentials::ClientCredentials {
            client_id: key.client_id.clone(),
            team_id: key.team_id.clone(),
            key_id: key.key_id.clone(),
            key: key.key.clone(),
        },
    )
    .unwrap();
    let scope = CreationScope {
        workspace_id: workspace.clone(),
        user_id: None,
        account_id: account.clone(),
        org_key,
        org_id,
        currency: "USD".into(),
    };
    for (i, point) in [
        Point::AfterCampaign,
        Point::MidAdGroups,
        Point::MidKeywords,
        Point::MidDiscoveryNegatives,
        Point::MidAds,
        Point::LostAnswers,
    ]
    .into_iter()
    .enumerate()
    {
        let tag = format!("K{i}");
        let plan = plan(&tag, adam_id, &country, &page);
        match point {
            Point::LostAnswers => {
                faults(&http, &sandbox, json!({"errorRate": 0.15})).await;
            }
            _ => faults(&http, &sandbox, json!({"latencyMs": 150})).await,
        }
        let job = CreateCampaigns {
            scope: scope.clone(),
            plan: plan.clone(),
        };
        // The job's id comes back with the task's: the running worker may relay the outbox
        // (and remove the job's row) as soon as the transaction commits.
        let ids = create_with_job_ids(
            &env.db,
            NewTask {
                workspace_id: &workspace,
                user_id: None,
                kind: "create-campaigns",
                message: "Creating campaigns...",
                total_steps: 10,
                account_id: None,
                org_id: None,
            },
            &job,
        )
        .await
        .unwrap();
        let (task_id, job_id) = (ids.task, ids.job);
        outbox::relay_once(&env.db, &env.queue, 10).await.unwrap();
        if !matches!(point, Point::LostAnswers) {
            let keys = eventually(Duration::from_secs(120), &format!("{point:?}"), || async {
                let keys = recorded(&env, &job_id).await;
                at(point, &keys, &tag).then_some(keys)
            })
            .await;
            signal(&worker, "KILL");
            worker.wait().unwrap();
            eprintln!("{point:?}: killed with {} keys recorded", keys.len());
            faults(&http, &sandbox, json!({})).await;
            worker = env.spawn_worker(&[]);
        }
        let (error, details): (Option<String>, String) =
            eventually(Duration::from_secs(300), "the resumed creation", || async {
                let row: (i64, Option<String>, String) =
                    sqlx::query_as("SELECT finish, error, progress FROM tasks WHERE id = $1")
                        .bind(&task_id)
                        .fetch_one(&env.db.pool)
                        .await
                        .unwrap();
                (row.0 == 1).then_some((row.1, row.2))
            })
            .await;
        faults(&http, &sandbox, json!({})).await;
        assert_eq!(error, None, "{point:?}: {details}");
        let d: Value = serde_json::from_str(&details).unwrap();
        assert_eq!(
            d["campaignsCreated"],
            json!(CAMPAIGNS + 1),
            "{point:?}: {d}"
        );
        assert_eq!(d["groupsCreated"], json!(CAMPAIGNS * GROUPS + 1));
        assert_eq!(d["keywordsCreated"], json!(CAMPAIGNS * GROUPS * KEYWORDS));
        assert_eq!(d["rejected"], json!([]));
        assert_eq!(d["finish"], json!(true));
        exactly_once(&client, org_id, &plan).await;
        // Our synced tables hold them too.
        let ours: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM asa_keywords k JOIN asa_campaigns c ON c.org_key = k.org_key \
             AND c.id = k.campaign_id WHERE k.org_key = $1 AND c.name LIKE $2",
        )
        .bind(org_key)
        .bind(format!("{tag} %"))
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
        assert_eq!(ours as usize, CAMPAIGNS * GROUPS * KEYWORDS, "{point:?}");
        // One activity-log notification, with one CREATE change per campaign, ad group and
        // keyword, however often the job was killed.
        let n = searchdeck_common::store::activity::notifications::by_key(
            &env.db.pool,
            &workspace,
            &format!("creation:{job_id}"),
        )
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("{point:?}: the creation's notification"));
        assert_eq!(
            (n.tag.as_str(), n.action.as_str(), n.title.clone()),
            (
                "quick_start",
                "CREATE",
                format!("{} campaigns created", CAMPAIGNS + 1)
            ),
            "{point:?}"
        );
        let made: Vec<(String, i64)> = sqlx::query_as(
            "SELECT level, COUNT(*) FROM change_records WHERE notification_id = $1 \
             AND field = 'created' GROUP BY level ORDER BY level",
        )
        .bind(&n.id)
        .fetch_all(&env.db.pool)
        .await
        .unwrap();
        assert_eq!(
            made,
            vec![
                ("AD_GROUP".to_string(), (CAMPAIGNS * GROUPS + 1) as i64),
                ("CAMPAIGN".to_string(), (CAMPAIGNS + 1) as i64),
                (
                    "KEYWORD".to_string(),
                    (CAMPAIGNS * GROUPS * KEYWORDS) as i64
                ),
            ],
            "{point:?}"
        );
    }
    signal(&worker, "TERM");
    worker.wait().unwrap();
}

searchdeck_common::per_backend!([sqlite, postgres] killed_at_every_point);
