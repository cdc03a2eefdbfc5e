//! The reference-rate download: the `fetch-rates` job's steps against the sandbox's
//! stand-in of the ECB feed store every working day's rates once, however often they run,
//! and a feed that answers something else is an error worth retrying.

use searchdeck_common::{ids::now_ms, queue::JobError, store};
use searchdeck_workers::jobs::fetch_rates::{download, store_feed};

use crate::support::{Kind, TestEnv};
use crate::sync::start_sandbox;

searchdeck_common::per_backend!([sqlite, postgres] the_sandbox_feed_is_stored_once_per_day_and_currency);

async fn the_sandbox_feed_is_stored_once_per_day_and_currency(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let sandbox = start_sandbox().await;
    let feed = download(&format!("{sandbox}/eurofxref/eurofxref-hist-90d.xml"))
        .await
        .unwrap();
    assert_eq!(feed.source, "Searchdeck sandbox");
    // 90 days hold 64 to 66 working days; no weekend is published.
    assert!((64..=66).contains(&feed.days.len()), "{}", feed.days.len());
    assert!(
        feed.days
            .iter()
            .all(|d| d.day.weekday().number_from_monday() <= 5)
    );
    let newest = feed.days.last().unwrap();
    assert!(newest.rates.contains_key("USD") && newest.rates.contains_key("JPY"));
    assert!(!newest.rates.contains_key("EUR"), "the euro is the base");

    let written = store_feed(&env.db, &feed, now_ms()).await.unwrap();
    let again = store_feed(&env.db, &feed, now_ms()).await.unwrap();
    assert_eq!(written, again);
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fx_rates")
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    assert_eq!(stored as usize, written, "a second run replaces, not adds");
    let set = store::fx_rates::rate_set(&env.db.pool, newest.day)
        .await
        .unwrap();
    assert_eq!(set.per_euro("USD"), newest.rates.get("USD").copied());
    assert_eq!(set.source.as_deref(), Some("Searchdeck sandbox"));

    // Not a feed (the sandbox's health answer) or not there: retried, not stored.
    let not_feed = download(&format!("{sandbox}/sandbox/health")).await;
    assert!(
        matches!(not_feed, Err(JobError::Retryable(_))),
        "{not_feed:?}"
    );
    let missing = download(&format!("{sandbox}/eurofxref/none.xml")).await;
    assert!(
        matches!(missing, Err(JobError::Retryable(_))),
        "{missing:?}"
    );
}
