//! `refresh-popularity` against the sandbox: the texts of a synced campaign group's keywords
//! (not deleted) and search terms, normalised, get Apple's search popularity of their
//! campaigns' storefronts (the latest week); a text Apple has none for is stored without one;
//! a fresh row is not asked again, a stale one is refreshed.

use std::{collections::HashMap, time::Duration};

use searchdeck_common::{
    ids,
    jobs::RefreshPopularity,
    store::{
        self,
        popularity::{self, FRESH_MS, Popularity},
    },
};
use searchdeck_provider::{AppleAds, Client, ClientConfig, Credentials};
use serde_json::json;

use crate::{
    support::{Kind, eventually},
    sync::{Connected, connected},
};

searchdeck_common::per_backend!([sqlite, postgres] refresh_fills_missing_and_stale_popularity);

async fn refresh_fills_missing_and_stale_popularity(kind: Kind) {
    let Some(Connected {
        sandbox,
        env,
        key,
        account,
        ..
    }) = connected(kind).await
    else {
        return;
    };
    let pool = &env.db.pool;
    let org_id = store::accounts::orgs(pool, &account).await.unwrap()[0].org_id;

    // Two terms Apple ranks in the US, with their newest week's popularity, as asked directly.
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
    let today = time::OffsetDateTime::now_utc().date();
    let rows = client
        .search_term_popularity(org_id, &json!({
            "timeRange": {"start": (today - time::Duration::days(14)).to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT"},
            "filters": [{"field": "countryOrRegion", "operator": "EQUALS", "value": ["US"]}],
            "pagination": {"pageSize": 5000}}))
        .await
        .unwrap();
    let mut newest: HashMap<String, (String, i64)> = HashMap::new();
    for r in &rows.items {
        let (term, week) = (
            r["searchTerm"].as_str().unwrap(),
            r["week"].as_str().unwrap(),
        );
        let value = r["searchPopularity1to100"].as_i64().unwrap();
        if newest.get(term).is_none_or(|(w, _)| w.as_str() < week) {
            newest.insert(term.to_string(), (week.to_string(), value));
        }
    }
    let mut terms: Vec<(&String, i64)> = newest
        .iter()
        .filter(|(t, _)| popularity::normalise(t) == **t)
        .map(|(t, (_, v))| (t, *v))
        .collect();
    terms.sort();
    assert!(terms.len() >= 2, "the sandbox ranks US terms");
    let ((t1, p1), (t2, p2)) = (terms[0], terms[1]);

    let org_key = store::synced::ensure_org(pool, &account, org_id, Some("USD"), None)
        .await
        .unwrap();
    let now = ids::now_ms();
    sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, countries, synced_at) VALUES ($1, 1, 'US', 'ENABLED', '[\"US\"]', $2)")
        .bind(org_key).bind(now).execute(pool).await.unwrap();
    let shouted = format!("{}!", t1.to_uppercase());
    for (id, text, deleted) in [
        (1i64, shouted.as_str(), 0i64),
        (2, "zzqx unheard", 0),
        (3, "deleted words", 1),
        (4, "fresh words", 0),
    ] {
        sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) VALUES ($1, $2, 1, 1, $3, 'EXACT', 'ACTIVE', $4, $5)")
            .bind(org_key).bind(id).bind(text).bind(deleted).bind(now).execute(pool).await.unwrap();
    }
    sqlx::query("INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 9, 1, 1, $2, 'AUTO')")
        .bind(org_key).bind(t2).execute(pool).await.unwrap();
    let stored = |text: &str, value: Option<i64>, at: i64| Popularity {
        text: text.into(),
        country: "US".into(),
        popularity: value,
        fetched_at: at,
    };
    let stale_at = now - FRESH_MS - 1000;
    let fresh_at = now - 1000;
    popularity::put_many(
        pool,
        &[
            stored(t2, Some(1), stale_at),
            stored("fresh words", Some(5), fresh_at),
        ],
    )
    .await
    .unwrap();

    env.queue
        .enqueue(&RefreshPopularity {
            period: "test".into(),
        })
        .await
        .unwrap();
    let worker = env.start_worker();
    let texts: Vec<String> = [
        t1.as_str(),
        t2.as_str(),
        "zzqx unheard",
        "deleted words",
        "fresh words",
    ]
    .map(String::from)
    .into();
    let got = eventually(Duration::from_secs(60), "popularity refreshed", || async {
        let rows = popularity::get_many(pool, &texts, &[]).await.unwrap();
        let by_text: HashMap<String, Popularity> =
            rows.into_iter().map(|r| (r.text.clone(), r)).collect();
        (by_text.len() == 4 && by_text[t2.as_str()].fetched_at > stale_at).then_some(by_text)
    })
    .await;
    worker.stop().await;

    assert_eq!(got[t1.as_str()].popularity, Some(p1), "{t1}");
    assert_eq!(
        got[t2.as_str()].popularity,
        Some(p2),
        "{t2}: the stale row is refreshed"
    );
    assert!(got[t1.as_str()].fetched_at >= now);
    assert_eq!(
        got["zzqx unheard"].popularity, None,
        "remembered without a value"
    );
    assert!(got["zzqx unheard"].fetched_at >= now);
    assert_eq!(
        got["fresh words"],
        stored("fresh words", Some(5), fresh_at),
        "a fresh row is not asked again"
    );
    assert!(
        !got.contains_key("deleted words"),
        "deleted keywords are not refreshed"
    );
    assert!(got.values().all(|r| r.country == "US"));
}
