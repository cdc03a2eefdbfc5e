//! Conformance cases of the attribution pull's stores (run on both backends by the `store`
//! suite): a pull's settings set, replaced, failed and succeeded, and gone with its
//! integration; a pulled day replacing every fact of (provider, install day) — pushed ones
//! included — however often it is pulled, other providers and days untouched.

use searchdeck_common::{
    Db,
    ids::now_ms,
    store::attribution::{
        facts::{self, Fact},
        integrations::{self, Token},
        pulled,
        pulls::{self, NewPull},
    },
    test_support::connected_org,
};

fn fact<'a>(provider: &'a str, day: &'a str, events: i64, revenue: i64) -> Fact<'a> {
    Fact {
        level: 1,
        entity_id: 7,
        install_day: day,
        provider,
        adam_id: 900,
        event_name: "install",
        age_days: 0,
        claim_type: "",
        placement: "",
        currency: "USD",
        events,
        revenue_micros: revenue,
    }
}

async fn installs(db: &Db, ws: &str, provider: &str) -> i64 {
    facts::tracked_installs(&db.pool, ws, provider, ("2026-11-01", "2026-11-30"))
        .await
        .unwrap()
        .0
}

pub async fn pulls_replace_their_days_and_keep_their_status(db: &Db) {
    let (ws, ..) = connected_org(db, "pull@example.com").await;
    let now = now_ms();
    let token = Token {
        hash: "h-appsflyer",
        hint: "abcd",
        secret_sealed: None,
    };
    integrations::upsert(&db.pool, "i1", &ws, "appsflyer", &token, "u1", now)
        .await
        .unwrap();
    let new = NewPull {
        token_sealed: "sealed-1",
        token_hint: "wxyz",
        settings: "{}",
        created_by: "u1",
    };
    pulls::upsert(&db.pool, &ws, "appsflyer", &new, now)
        .await
        .unwrap();
    pulls::failed(&db.pool, &ws, "appsflyer", "refused", now + 1)
        .await
        .unwrap();
    let got = pulls::get(&db.pool, &ws, "appsflyer")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (got.last_error.as_deref(), got.last_success_at),
        (Some("refused"), None)
    );
    // A new token forgets the old one's error; a success is kept and clears any error.
    pulls::upsert(
        &db.pool,
        &ws,
        "appsflyer",
        &NewPull {
            token_sealed: "sealed-2",
            ..new.clone()
        },
        now + 2,
    )
    .await
    .unwrap();
    pulls::succeeded(&db.pool, &ws, "appsflyer", now + 3)
        .await
        .unwrap();
    let got = pulls::get(&db.pool, &ws, "appsflyer")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            got.token_sealed.as_str(),
            got.last_error,
            got.last_success_at
        ),
        ("sealed-2", None, Some(now + 3))
    );

    // A pushed install, then the day pulled twice: the pull's numbers, never added.
    facts::add_all(&db.pool, &ws, &[fact("appsflyer", "2026-11-05", 1, 0)])
        .await
        .unwrap();
    facts::add_all(&db.pool, &ws, &[fact("adjust", "2026-11-05", 4, 0)])
        .await
        .unwrap();
    facts::add_all(&db.pool, &ws, &[fact("appsflyer", "2026-11-06", 2, 0)])
        .await
        .unwrap();
    assert!(
        !pulled::is_pulled(&db.pool, &ws, "appsflyer", "2026-11-05")
            .await
            .unwrap()
    );
    for _ in 0..2 {
        let mut tx = db.begin_write().await.unwrap();
        let day = [fact("appsflyer", "2026-11-05", 10, 5_000_000)];
        pulled::replace_day(&mut tx, &ws, "appsflyer", "2026-11-05", &day, 10, now)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    assert!(
        pulled::is_pulled(&db.pool, &ws, "appsflyer", "2026-11-05")
            .await
            .unwrap()
    );
    assert_eq!(
        installs(db, &ws, "appsflyer").await,
        12,
        "the pulled day's 10 and the pushed day's 2"
    );
    assert_eq!(
        installs(db, &ws, "adjust").await,
        4,
        "another provider's day is its own"
    );

    // Disconnecting the provider takes its pull (the facts stay).
    assert!(
        integrations::delete(&db.pool, &ws, "appsflyer")
            .await
            .unwrap()
    );
    assert!(
        pulls::get(&db.pool, &ws, "appsflyer")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(installs(db, &ws, "appsflyer").await, 12);
}
