//! The fault test: with 10% injected 5xx (half of them after the write applied)
//! and bursts of 429, 1,000 client calls — reads and idempotent writes, eight at a time —
//! all complete, and the change history shows every write applied exactly once.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use searchdeck_provider::calls::{AdGroup, Campaign, Keyword};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use searchdeck_provider::{Client, Created, RetryPolicy};
use serde_json::json;

use crate::support::{client_with, range, start};

const CALLS: usize = 1000;
const CHAINS: usize = 60;

/// One unit of work: a read, or a keyword's create → bid update (→ delete) chain.
#[derive(Clone, Copy)]
enum Op {
    Read(usize),
    Chain(usize),
}

async fn read(c: &Client, account: i64, campaign: i64, n: usize) {
    match n % 4 {
        0 => drop(c.ad_account(account).await.unwrap()),
        1 => drop(
            c.get::<Campaign>(account, Entity::Campaigns, campaign)
                .await
                .unwrap(),
        ),
        2 => drop(
            c.query::<Keyword>(
                account,
                Entity::Keywords,
                &json!({ "pagination": { "pageSize": 50 } }),
            )
            .await
            .unwrap(),
        ),
        _ => drop(
            c.report(
                account,
                "campaigns",
                &json!({ "timeRange": range(3, 3, None) }),
            )
            .await
            .unwrap(),
        ),
    }
}

/// Creates keyword `i` once, sets its bid, and deletes every third one: 2 or 3 calls.
async fn chain(c: &Client, account: i64, group: i64, i: usize, resolved: &AtomicUsize) -> usize {
    let text = format!("fault keyword {i}");
    let created = c
        .create_once::<Keyword>(
            account,
            Entity::Keywords,
            &json!({ "adGroupId": group, "text": text, "matchType": "EXACT" }),
            &json!([
                { "field": "adGroupId", "operator": "EQUALS", "value": [group] },
                { "field": "text", "operator": "EQUALS", "value": [text] },
                { "field": "matchType", "operator": "EQUALS", "value": ["EXACT"] }
            ]),
        )
        .await
        .unwrap_or_else(|e| panic!("create {text}: {e}"));
    if matches!(created, Created::Existing(_)) {
        resolved.fetch_add(1, Ordering::Relaxed);
    }
    let id = created.into_inner().id;
    let bid = format!("{}.{:02}", 2 + i % 3, i % 100);
    c.update::<Keyword>(
        account,
        Entity::Keywords,
        id,
        &json!({ "bid": { "amount": bid } }),
    )
    .await
    .unwrap();
    if i.is_multiple_of(3) {
        c.delete(account, Entity::Keywords, id).await.unwrap();
        return 3;
    }
    2
}

fn calls_of(op: Op) -> usize {
    match op {
        Op::Read(_) => 1,
        Op::Chain(i) if i.is_multiple_of(3) => 3,
        Op::Chain(_) => 2,
    }
}

#[tokio::test]
async fn a_thousand_calls_under_faults_apply_every_write_exactly_once() {
    let h = start().await;
    let policy = RetryPolicy {
        max_attempts: 8,
        backoff: searchdeck_common::retry::Backoff {
            base: Duration::from_millis(5),
            max: Duration::from_millis(80),
        },
        max_rate_limited: 20,
    };
    let c = Arc::new(client_with(&h.base, &h.seen, &h.ids, h.key.clone(), policy));
    let account = c.ad_accounts().await.unwrap()[0].0;
    let campaign = c
        .query::<Campaign>(account, Entity::Campaigns, &json!({}))
        .await
        .unwrap()
        .items[0]
        .id;
    let group: AdGroup = c
        .create(account, Entity::AdGroups, &json!({ "name": "Fault run", "campaignId": campaign, "pricingModel": "CPT", "bidStrategy": { "bid": { "amount": "1.00" } } }))
        .await
        .unwrap();

    // The plan: 60 write chains spread among reads, 1,000 calls in all.
    let mut ops: Vec<Op> = (0..CHAINS).map(Op::Chain).collect();
    let writes: usize = ops.iter().map(|o| calls_of(*o)).sum();
    ops.extend((0..CALLS - writes).map(Op::Read));
    ops.sort_by_key(|o| match o {
        Op::Chain(i) => i * 16 + 3,
        Op::Read(n) => *n,
    });
    assert_eq!(ops.iter().map(|o| calls_of(*o)).sum::<usize>(), CALLS);

    let http = reqwest::Client::new();
    let faults = |burst: u32| json!({ "errorRate": 0.1, "burst429": burst });
    http.put(format!("{}/sandbox/faults", h.base))
        .json(&faults(8))
        .send()
        .await
        .unwrap();
    let queue = Arc::new(tokio::sync::Mutex::new(ops.into_iter()));
    let done = Arc::new(AtomicUsize::new(0));
    let resolved = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let (c, queue, done, resolved) =
                (c.clone(), queue.clone(), done.clone(), resolved.clone());
            let (base, http) = (h.base.clone(), http.clone());
            tokio::spawn(async move {
                loop {
                    let Some(op) = queue.lock().await.next() else {
                        break;
                    };
                    let n = match op {
                        Op::Read(n) => {
                            read(&c, account, campaign, n).await;
                            1
                        }
                        Op::Chain(i) => chain(&c, account, group.id, i, &resolved).await,
                    };
                    let before = done.fetch_add(n, Ordering::Relaxed);
                    // Two bursts of 429s, a third and two thirds into the run. A burst lasts
                    // the one second its Retry-After announces; the first 429 pauses every
                    // caller of the account for that second, so a burst costs about a second
                    // and answers only the requests already on their way.
                    if (before < 333 && before + n >= 333) || (before < 666 && before + n >= 666) {
                        http.put(format!("{base}/sandbox/faults"))
                            .json(&faults(8))
                            .send()
                            .await
                            .unwrap();
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    let elapsed = started.elapsed();
    http.put(format!("{}/sandbox/faults", h.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(done.load(Ordering::Relaxed), CALLS);

    // Every keyword exists once, with its bid, deleted when it should be.
    let kws = c
        .query::<Keyword>(account, Entity::Keywords, &json!({ "filters": [{ "field": "adGroupId", "operator": "EQUALS", "value": [group.id] }], "pagination": { "pageSize": 1000 } }))
        .await
        .unwrap()
        .items;
    assert_eq!(kws.len(), CHAINS, "one keyword per chain");
    for k in &kws {
        let i: usize = k.text.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(
            k.bid.as_ref().unwrap().amount,
            format!("{}.{:02}", 2 + i % 3, i % 100)
        );
        assert_eq!(k.deleted == Some(true), i.is_multiple_of(3), "{}", k.text);
    }
    // The change history saw each write exactly once.
    let history = c
        .change_history(account, &json!({ "filters": [{ "field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01" }, { "field": "entityType", "operator": "EQUALS", "value": "Keyword" }], "pagination": { "pageSize": 1000 }, "options": { "metadata": "snapshot" } }))
        .await
        .unwrap()
        .items;
    let mut events: HashMap<(i64, String), usize> = HashMap::new();
    for row in &history {
        for meta in row["metas"].as_array().unwrap() {
            let key = (
                meta["Keyword"].as_str().unwrap().parse::<i64>().unwrap(),
                row["eventType"].as_str().unwrap().to_string(),
            );
            *events.entry(key).or_default() += 1;
        }
    }
    for k in &kws {
        let count = |e: &str| events.get(&(k.id, e.to_string())).copied().unwrap_or(0);
        let i: usize = k.text.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(count("CREATE"), 1, "{}", k.text);
        assert_eq!(count("UPDATE"), 1, "{}", k.text);
        assert_eq!(
            count("DELETE"),
            usize::from(i.is_multiple_of(3)),
            "{}",
            k.text
        );
    }
    let seen = h.seen.lock().unwrap();
    let failed = seen.iter().filter(|s| s.2 >= 500).count();
    let limited = seen.iter().filter(|s| s.2 == 429).count();
    eprintln!(
        "{CALLS} calls in {elapsed:?}: {} responses, {failed} injected 5xx, {limited} 429s, {} creates resolved by lookup",
        seen.len(),
        resolved.load(Ordering::Relaxed)
    );
    assert!(
        failed >= 50 && limited >= 2,
        "faults were injected: {failed} 5xx, {limited} 429"
    );
}
