//! The keyword collection (issue 22) through the API, the `collect-keywords` job and the
//! in-process sandbox, on SQLite and PostgreSQL: a collection for a synced app and a
//! competitor walks the phases in order and finishes with keywords from every source
//! (required, hints, the app, the competitor, phrases, Apple Ads, the group's own search
//! terms), polling again answers the same keywords, a timing and the defaults follow; a
//! stop ends a running collection at once and keeps nothing; payload checks answer field
//! errors; readers get 403 on the writes and another workspace's task answers 404; a result
//! older than 24 h is gone (the clean-up's clock is a parameter).

use std::time::{Duration, Instant};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    ids, store,
    suggester::{Phase, SourceType},
    tasks::NewTask,
};
use serde_json::{Value, json};

/// The campaign group and app with the most search terms with traffic.
async fn app_with_search_terms(t: &Connected, account_id: &str) -> (i64, i64) {
    sqlx::query_as(
        "SELECT o.org_id, c.adam_id FROM asa_search_terms s \
         JOIN asa_campaigns c ON c.org_key = s.org_key AND c.id = s.campaign_id \
         JOIN sync_orgs o ON o.org_key = s.org_key \
         WHERE o.account_id = $1 AND c.adam_id IS NOT NULL \
         GROUP BY o.org_id, c.adam_id ORDER BY COUNT(*) DESC, o.org_id, c.adam_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

/// Another app of the same genre, as App Store search finds it.
async fn rival(t: &Connected, adam_id: i64) -> i64 {
    let get = |url: String| async move {
        t.http
            .get(url)
            .send()
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()
    };
    let app = get(format!(
        "{}/appstore/lookup?id={adam_id}&country=us",
        t.sandbox
    ))
    .await;
    let genre = app["results"][0]["primaryGenreName"]
        .as_str()
        .unwrap()
        .to_string();
    let found = get(format!(
        "{}/appstore/search?term={}&country=us&entity=software",
        t.sandbox,
        genre.replace('&', "%26")
    ))
    .await;
    found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["trackId"].as_i64().unwrap())
        .find(|id| *id != adam_id)
        .expect("another app of the genre")
}

fn start_url(adam_id: i64, account_id: &str, org_id: i64) -> String {
    format!(
        "/api/phrase/getListByShuffleTitlesPopularities/{adam_id}?accountId={account_id}&orgId={org_id}"
    )
}

/// Polls a collection every 100 ms until it finishes; the messages seen, in order, and the
/// last answer.
async fn poll(t: &Connected, url: &str, task: &str, cookie: &str) -> (Vec<String>, Value) {
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..1200 {
        let res = t
            .call(Method::POST, &format!("{url}&id={task}"), json!({}), cookie)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let message = res.json["result"]["task"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        if seen.last() != Some(&message) {
            seen.push(message);
        }
        if res.json["result"]["task"]["finish"] == true {
            return (seen, res.json);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the collection did not finish within 2 minutes: {seen:?}");
}

sandbox_tests! {
    async fn a_collection_runs_every_phase_with_every_source_and_can_be_stopped(t: Connected) {
        let owner = t.app.register(&t.app.email(), "long password").await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let account_id = t.connect_until_reports_synced(&owner, "Suggester").await;
        let (org_id, adam_id) = app_with_search_terms(&t, &account_id).await;
        let competitor = rival(&t, adam_id).await;
        let url = start_url(adam_id, &account_id, org_id);

        // Field errors before anything is queued.
        let res = t.call(Method::POST, &url, json!({"country": "US", "suggestionType": "competitors"}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.json["errors"][0], json!({"field": "competitors", "message": "Add at least one competitor to continue"}));
        let res = t.call(Method::POST, &url, json!({"country": "ZZ", "suggestionType": "keywords", "words": ["!!"]}), &owner).await;
        let fields: Vec<&str> = res.json["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, ["country", "words"], "{:?}", res.json);
        // A member of the wrong type is named where it stands, in both forms of the body.
        for (body, field) in [
            (json!({"country": "US", "suggestionType": "keywords", "words": [["x"]]}), "words.0"),
            (json!({"data": {"country": "US", "suggestionType": "keywords", "words": ["a", 7]}}), "data.words.1"),
            (json!({"country": "US", "suggestionType": "keywords", "withAggregation": "yes"}), "withAggregation"),
        ] {
            let res = t.call(Method::POST, &url, body.clone(), &owner).await;
            assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some(field)), "{body}: {:?}", res.json);
        }
        let res = t.call(Method::POST, &start_url(1, &account_id, org_id), json!({"country": "US", "suggestionType": "app"}), &owner).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("adamId")));
        let res = t.call(Method::POST, &url, json!({"country": "US", "suggestionType": "app"}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);

        // Nothing measured yet: the timing is a first estimate from the calls a typical
        // collection of the type plans (43 for competitors: the lookup, 12 hints, the store
        // search, 12 Apple Ads suggestion calls, 3 competitors' hints, 15 popularity batches)
        // at the rate limiter's starting pace of 200 ms; the defaults are the spec's.
        let timing = t.get("/api/timings/competitors/US", &owner).await;
        assert_eq!(timing.json["result"], json!({"duration": 43 * 200, "estimated": true, "calls": 43}));
        let defaults = t.get("/api/keyword/default", &owner).await;
        assert_eq!(defaults.json["result"]["item"]["negativeKeywords"], json!([]));
        assert_eq!(defaults.json["result"]["item"]["excludedWordsByPopularities"], 1);

        let payload = json!({"country": "US", "suggestionType": "competitors",
            "competitors": [competitor.to_string()], "words": ["Zebra Required!"],
            "excludedWords": ["free"]});
        let res = t.call(Method::POST, &url, payload.clone(), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = res.json["result"]["id"].as_str().unwrap().to_string();
        let (seen, done) = poll(&t, &url, &task, &owner).await;
        assert_eq!(done.json_message(), "Keywords collecting completed!", "{done}");
        assert_eq!(seen.last().map(String::as_str), Some("Keywords collecting completed!"));
        // The messages seen are the spec's, in its order.
        let order = |m: &str| Phase::ALL.iter().position(|p| p.message() == m).unwrap_or(Phase::ALL.len());
        assert!(seen.windows(2).all(|w| order(&w[0]) < order(&w[1])), "{seen:?}");
        let result = &done["result"];
        assert_eq!(result["task"]["totalSteps"], 7);
        assert_eq!(result["task"]["step"], 7);
        let items = result["items"].as_array().unwrap();
        assert_eq!(result["task"]["details"]["candidates"], items.len());
        let with = |kind: SourceType| {
            let kind = serde_json::to_value(kind).unwrap();
            items.iter().filter(|k| k["sources"].as_array().unwrap().iter().any(|s| s["type"] == kind)).count()
        };
        for kind in [SourceType::Required, SourceType::Hint, SourceType::App, SourceType::Competitor,
                     SourceType::Phrase, SourceType::Apple, SourceType::SearchTerm] {
            assert!(with(kind) > 0, "{kind:?} contributed nothing");
        }
        let required = items.iter().find(|k| k["name"] == "zebra required").expect("the required keyword");
        assert_eq!(required["required"], true);
        assert!(items.iter().all(|k| !k["name"].as_str().unwrap().split(' ').any(|w| w == "free" || w == "frees")));
        assert!(items.iter().all(|k| k["required"] == true || k["popularity"].as_u64().unwrap() >= 1));
        assert!(items.iter().any(|k| !k["bidOn"].as_array().unwrap().is_empty()), "the group's own keywords are marked");
        // Apple's popularity of the collected keywords is kept for the tables and estimates.
        let names: Vec<String> = items.iter().filter(|k| k["popularity"].is_u64()).map(|k| k["name"].as_str().unwrap().to_string()).take(50).collect();
        let kept = store::popularity::get_many(&t.app.state.db.pool, &names, &["US".to_string()]).await.unwrap();
        assert_eq!(kept.len(), names.len(), "every collected popularity is stored");
        let pops: Vec<i64> = items.iter().map(|k| k["popularity"].as_i64().unwrap_or(-1)).collect();
        assert!(pops.windows(2).all(|w| w[0] >= w[1]), "sorted by popularity");
        // Polling again (second form) answers the same keywords.
        let again = t.call(Method::POST, &url, json!({"adamId": adam_id.to_string(), "data": payload, "query": task}), &owner).await;
        assert_eq!(again.json["result"]["items"], result["items"]);
        let timing = t.get("/api/timings/competitors/US", &owner).await;
        assert!(timing.json["result"]["duration"].as_i64().unwrap() > 0);
        assert_eq!((&timing.json["result"]["estimated"], &timing.json["result"]["calls"]), (&json!(false), &Value::Null), "measured");
        // Another type is estimated at the time per call this run measured.
        let (ms, calls): (i64, i64) = sqlx::query_as("SELECT duration_ms, calls FROM suggester_runs")
            .fetch_one(&t.app.state.db.pool).await.unwrap();
        assert!(calls > 0, "the run recorded its calls");
        let app = t.get("/api/timings/app/US", &owner).await.json["result"].clone();
        assert_eq!(app, json!({"duration": 40 * (ms / calls), "estimated": true, "calls": 40}));
        let defaults = t.get("/api/keyword/default", &owner).await;
        assert_eq!(defaults.json["result"]["item"]["negativeKeywords"], json!(["free"]));

        // Another workspace's task is not found, on the poll and the stop.
        let stranger = t.app.register(&t.app.email(), "long password").await;
        assert_eq!(t.get(&format!("/api/phrase/suggesterSearches/one/stop/{task}"), &stranger).await.status, StatusCode::NOT_FOUND);
        let me = t.get("/api/auth/me", &stranger).await.json;
        let theirs = store::tasks::create(&t.app.state.db.pool, NewTask {
            workspace_id: me["result"]["item"]["workspaceId"].as_str().unwrap(), user_id: None,
            kind: "collect-keywords", message: "x", total_steps: 7, account_id: None, org_id: None,
        }).await.unwrap();
        let res = t.call(Method::POST, &format!("{url}&id={theirs}"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert_eq!(t.get(&format!("/api/phrase/suggesterSearches/one/stop/{task}"), &reader).await.status, StatusCode::FORBIDDEN);

        // A stop mid-run: Stopped at once, the job ends, nothing is kept.
        let faults = t.http.put(format!("{}/sandbox/faults", t.sandbox)).json(&json!({"latencyMs": 300})).send().await.unwrap();
        assert!(faults.status().is_success());
        let res = t.call(Method::POST, &url, json!({"country": "US", "suggestionType": "app"}), &owner).await;
        let running = res.json["result"]["id"].as_str().unwrap().to_string();
        for _ in 0..200 {
            let task = store::tasks::in_workspace(&t.app.state.db.pool, &me_of(&t, &owner).await, &running).await.unwrap().unwrap();
            if task.step >= 2 { break; }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let asked = Instant::now();
        let stopped = t.get(&format!("/api/phrase/suggesterSearches/one/stop/{running}"), &owner).await;
        // The stop answers at once rather than after the collection, which the sandbox's
        // latency fault (300 ms a call, dozens of calls) stretches far past this bound.
        assert!(asked.elapsed() < Duration::from_secs(5), "{:?}", asked.elapsed());
        assert_eq!(stopped.status, StatusCode::OK, "{:?}", stopped.json);
        let item = &stopped.json["result"]["item"];
        assert_eq!((item["finish"].clone(), item["error"].clone(), item["details"]["stopped"].clone()), (json!(true), json!("Stopped"), json!(true)));
        // The details stay the document's CollectProgress (candidates counted), not `{stopped}` alone.
        assert!(item["details"]["candidates"].is_u64(), "{:?}", item["details"]);
        let res = t.call(Method::POST, &format!("{url}&id={running}"), json!({}), &owner).await;
        assert_eq!(res.json_message(), "Something went wrong");
        assert!(res.json["result"].get("items").is_none());
        // The job notices within its cancel poll and keeps nothing.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let kept: Option<String> = sqlx::query_scalar("SELECT task_id FROM suggester_results WHERE task_id = $1")
            .bind(&running).fetch_optional(&t.app.state.db.pool).await.unwrap();
        assert_eq!(kept, None);
        let again = t.get(&format!("/api/phrase/suggesterSearches/one/stop/{running}"), &owner).await;
        assert_eq!(again.json["result"]["item"]["updatedAt"], item["updatedAt"], "stopping a finished task changes nothing");
        let _ = t.http.put(format!("{}/sandbox/faults", t.sandbox)).json(&json!({})).send().await.unwrap();

        // 24 h later the keywords are gone (clock of the store and the clean-up given).
        sqlx::query("UPDATE suggester_results SET created_at = created_at - $1")
            .bind(25 * 3600 * 1000_i64).execute(&t.app.state.db.pool).await.unwrap();
        let res = t.call(Method::POST, &format!("{url}&id={task}"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let removed = store::suggester::delete_expired(&t.app.state.db.pool, ids::now_ms()).await.unwrap();
        assert_eq!(removed, 1);
    }
}

/// The workspace of a signed-in user.
async fn me_of(t: &Connected, cookie: &str) -> String {
    let me = t.get("/api/auth/me", cookie).await.json;
    me["result"]["item"]["workspaceId"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The envelope's message.
trait Message {
    fn json_message(&self) -> &str;
}

impl Message for Value {
    fn json_message(&self) -> &str {
        self["message"].as_str().unwrap_or_default()
    }
}

impl Message for crate::common::TestResponse {
    fn json_message(&self) -> &str {
        self.json["message"].as_str().unwrap_or_default()
    }
}
