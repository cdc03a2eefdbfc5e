//! The App Store Connect client against the sandbox's stand-in: a registered key reads the
//! world's apps and a DAILY SALES SUMMARY report (gzip'd TSV read by Apple's column names,
//! in-app purchases attributed to their app by SKU); today's report is not there yet (`None`);
//! a key the stand-in does not know is `Unauthorized` with Apple's words; a vendor number not
//! the team's is `Refused` with 403.

use searchdeck_provider::KeyPair;
use searchdeck_provider::appstore_connect::{AppStoreConnect, AscConfig, AscError, AscKey, sales};
use secrecy::ExposeSecret;
use serde_json::Value;
use time::{Duration, OffsetDateTime};

use crate::support::start;

#[tokio::test]
async fn app_store_connect_client_reads_the_stand_in() {
    let h = start().await;
    let pair = KeyPair::generate();
    let ids: Value = reqwest::Client::new()
        .post(format!("{}/sandbox/appstoreconnect/keys", h.base))
        .body(pair.public_pem())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let f = |k: &str| ids[k].as_str().unwrap().to_string();
    let (issuer, key_id, vendor) = (f("issuerId"), f("keyId"), f("vendorNumber"));
    let pem = pair.private_pem().expose_secret().to_string();
    let key = AscKey::new(&issuer, &key_id, &pem).unwrap();
    let client = AppStoreConnect::new(AscConfig::sandbox(&h.base)).unwrap();

    let apps = client.apps(&key).await.unwrap();
    assert!(!apps.is_empty());
    assert!(
        apps.iter()
            .all(|a| a.adam_id > 0 && !a.sku.is_empty() && !a.bundle_id.is_empty())
    );

    let today = OffsetDateTime::now_utc().date();
    assert_eq!(
        client.daily_sales(&key, &vendor, today).await.unwrap(),
        None,
        "today's report is not out yet"
    );
    let mut sold = 0;
    for back in 1..=7 {
        let day = today - Duration::days(back);
        let Some(rows) = client.daily_sales(&key, &vendor, day).await.unwrap() else {
            continue;
        };
        assert!(rows.iter().all(|r| r.begin_date == day), "{day}");
        let summed = sales::attribute(&rows, &apps);
        let in_app: i64 = rows
            .iter()
            .filter(|r| !r.parent_identifier.is_empty())
            .map(|r| r.units)
            .sum();
        let attributed: i64 = summed
            .iter()
            .filter(|s| s.product_type != "1F")
            .map(|s| s.units)
            .sum();
        assert_eq!(
            in_app, attributed,
            "every in-app purchase found its app by SKU"
        );
        sold += summed.iter().map(|s| s.proceeds_micros).sum::<i64>();
    }
    assert!(sold > 0, "the world sold something in a week");

    let stranger = AscKey::new(
        &issuer,
        &key_id,
        KeyPair::generate().private_pem().expose_secret(),
    )
    .unwrap();
    match client.apps(&stranger).await {
        Err(AscError::Unauthorized(m)) => assert!(
            m.starts_with("Authentication credentials are missing or invalid."),
            "{m}"
        ),
        other => panic!("expected Unauthorized, got {other:?}"),
    }
    match client
        .daily_sales(&key, "11111111", today - Duration::days(1))
        .await
    {
        Err(AscError::Refused { status: 403, .. }) => {}
        other => panic!("expected a 403, got {other:?}"),
    }
}
