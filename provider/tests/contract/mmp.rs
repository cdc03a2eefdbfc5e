//! The AppsFlyer Master API client against the sandbox's stand-in: Apple Search Ads rows in
//! Apple's ids with the cohort curve, keyword texts and a Search Match share; a wrong token
//! as `Unauthorized`, an app that is not the token's as `Refused` with AppsFlyer's words; a
//! 429 waited out as `Retry-After` says, and handed back as `RateLimited` past the client's
//! patience.

use std::time::Duration;

use searchdeck_common::attribution::pull::KeywordRef;
use searchdeck_provider::mmp::{AppsFlyer, MmpConfig, MmpError, appsflyer::MasterQuery};
use secrecy::SecretString;
use serde_json::json;
use time::OffsetDateTime;

use crate::support::start;

const TOKEN: &str = "sandbox-appsflyer-token";

async fn faults(base: &str, body: serde_json::Value) {
    let res = reqwest::Client::new()
        .put(format!("{base}/sandbox/mmp/faults"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
}

/// The first promoted app of the default world (the harness's sandbox is the same world).
fn an_app() -> i64 {
    let sandbox = searchdeck_sandbox::Sandbox::new(searchdeck_sandbox::SandboxConfig::default());
    let w = sandbox.world.read();
    *w.apps
        .iter()
        .find(|(_, a)| a.owner.is_some())
        .expect("a promoted app")
        .0
}

#[tokio::test]
async fn appsflyer_master_report_reads_the_stand_in() {
    let h = start().await;
    let client = AppsFlyer::new(MmpConfig::sandbox(&h.base)).unwrap();
    let token = SecretString::from(TOKEN);
    let today = OffsetDateTime::now_utc().date();
    let events = vec!["af_start_trial".to_string(), "af_subscribe".to_string()];
    let adam_id = an_app();
    let app_id = format!("id{adam_id}");
    let query = MasterQuery {
        app_id: &app_id,
        from: today - time::Duration::days(30),
        to: today - time::Duration::days(1),
        events: &events,
        currency: "USD",
    };
    let report = client.master_report(&token, &query).await.unwrap();
    assert!(!report.rows.is_empty());
    assert!(
        report
            .rows
            .iter()
            .all(|r| r.campaign_id > 0 && r.ad_group_id.is_some() && r.adam_id == adam_id)
    );
    assert!(
        report.rows.iter().any(|r| r.keyword == KeywordRef::None),
        "Search Match rows have no keyword"
    );
    assert!(
        report
            .rows
            .iter()
            .any(|r| matches!(r.keyword, KeywordRef::Text(_)))
    );
    // The curve never passes the row's revenue; subscriptions carry revenue, trials none.
    for r in &report.rows {
        assert!(
            r.curve.windows(2).all(|w| w[0].1 <= w[1].1 + 1_000),
            "{r:?}"
        );
        assert!(
            r.events
                .iter()
                .filter(|e| e.name == "af_start_trial")
                .all(|e| e.revenue_micros == 0)
        );
    }
    assert!(report.rows.iter().any(|r| r.revenue_micros > 0));

    // A wrong token, an app that is not the world's.
    let wrong = client
        .master_report(&SecretString::from("nope"), &query)
        .await;
    assert!(matches!(wrong, Err(MmpError::Unauthorized(_))), "{wrong:?}");
    let other = MasterQuery {
        app_id: "id1",
        ..query.clone()
    };
    match client.master_report(&token, &other).await {
        Err(MmpError::Refused {
            status: 403,
            message,
        }) => assert!(message.contains("Not authorized app-ids: id1"), "{message}"),
        e => panic!("{e:?}"),
    }

    // Two 429s waited out (one second each), then the same rows.
    faults(&h.base, json!({"burst429": 2})).await;
    let started = std::time::Instant::now();
    let again = client.master_report(&token, &query).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(again.rows, report.rows, "deterministic from the world");

    // Past the client's patience, the 429 is the caller's (the job reschedules).
    let impatient = AppsFlyer::new(MmpConfig {
        max_wait: Duration::ZERO,
        ..MmpConfig::sandbox(&h.base)
    })
    .unwrap();
    faults(&h.base, json!({"burst429": 1})).await;
    let limited = impatient.master_report(&token, &query).await;
    assert_eq!(
        limited.unwrap_err(),
        MmpError::RateLimited {
            retry_after: Duration::from_secs(1)
        }
    );

    // The last day in progress: fewer installs that day, the others unchanged.
    faults(&h.base, json!({"partialLastDay": true})).await;
    let partial = client.master_report(&token, &query).await.unwrap();
    let installs = |rows: &[searchdeck_common::attribution::pull::PulledRow], day: &str| -> i64 {
        rows.iter()
            .filter(|r| r.install_day == day)
            .map(|r| r.installs)
            .sum()
    };
    let (last, first) = (query.to.to_string(), query.from.to_string());
    assert!(installs(&partial.rows, &last) < installs(&report.rows, &last));
    assert_eq!(
        installs(&partial.rows, &first),
        installs(&report.rows, &first)
    );
}
