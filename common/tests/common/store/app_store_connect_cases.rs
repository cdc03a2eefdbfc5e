//! Conformance cases of the App Store Connect store (run on both backends by the `store`
//! suite): a connection stored, replaced by the same key id (its id kept, its last error
//! forgotten), failed and succeeded; a day's rows replaced however often the day is written,
//! other days untouched; proceeds summed per app and day; another workspace's id not found;
//! a deleted connection taking its rows and days with it.

use searchdeck_common::{
    Db,
    store::app_store_connect::{self as asc, NewConnection, SaleRow},
    test_support::connected_org,
};

fn connection<'a>(id: &'a str, ws: &'a str, vendor: &'a str) -> NewConnection<'a> {
    NewConnection {
        id,
        workspace_id: ws,
        issuer_id: "57246542-96fe-1a63-e053-0824d011072a",
        key_id: "2X9R4HXF34",
        vendor_number: vendor,
        private_key_sealed: "sealed",
        name: "2X9R4HXF34",
        apps: r#"[{"adamId":900,"name":"App","bundleId":"b","sku":"sd-900"}]"#,
        created_by: "u1",
    }
}

fn sale(day: &str, country: &str, product: &str, units: i64, micros: i64) -> SaleRow {
    SaleRow {
        adam_id: 900,
        day: day.into(),
        country: country.into(),
        product_type: product.into(),
        units,
        proceeds_micros: micros,
        currency: "USD".into(),
    }
}

/// Writes `rows` as the report of `day`, as the job does: one transaction.
async fn write_day(db: &Db, id: &str, day: &str, rows: &[SaleRow]) {
    let mut tx = db.begin_write().await.unwrap();
    asc::delete_day(&mut *tx, id, day).await.unwrap();
    for r in rows {
        asc::upsert_sale(&mut *tx, id, r).await.unwrap();
    }
    asc::day_read(&mut *tx, id, day, 1).await.unwrap();
    tx.commit().await.unwrap();
}

pub async fn app_store_sales_replace_their_days(db: &Db) {
    let (ws, ..) = connected_org(db, "asc@example.com").await;
    let (other, ..) = connected_org(db, "asc-other@example.com").await;
    let id = asc::upsert(&db.pool, &connection("c1", &ws, "80012345"), 1)
        .await
        .unwrap();
    assert_eq!(id, "c1");
    asc::failed(&db.pool, &id, "refused", 2).await.unwrap();
    let again = asc::upsert(&db.pool, &connection("c2", &ws, "80099999"), 3)
        .await
        .unwrap();
    assert_eq!(again, "c1", "the same key id keeps its connection");
    let c = asc::in_workspace(&db.pool, &ws, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            c.vendor_number.as_str(),
            c.last_error.clone(),
            c.days_read,
            c.last_day.clone()
        ),
        ("80099999", None, 0, None)
    );
    assert!(
        asc::in_workspace(&db.pool, &other, &id)
            .await
            .unwrap()
            .is_none()
    );

    let first = [
        sale("2026-11-02", "US", "IAY", 3, 20_970_000),
        sale("2026-11-02", "DE", "1F", 9, 0),
    ];
    write_day(db, &id, "2026-11-02", &first).await;
    write_day(
        db,
        &id,
        "2026-11-03",
        &[sale("2026-11-03", "US", "IAY", 1, 6_990_000)],
    )
    .await;
    // The day read again, restated: replaced, not added to; the day without its DE row.
    write_day(
        db,
        &id,
        "2026-11-02",
        &[sale("2026-11-02", "US", "IAY", 2, 13_980_000)],
    )
    .await;
    write_day(
        db,
        &id,
        "2026-11-02",
        &[sale("2026-11-02", "US", "IAY", 2, 13_980_000)],
    )
    .await;
    let p = asc::proceeds(&db.pool, &id, "2026-11-01", "2026-11-30")
        .await
        .unwrap();
    let got: Vec<(String, i64, i64)> = p
        .iter()
        .map(|r| (r.day.clone(), r.units, r.proceeds_micros))
        .collect();
    assert_eq!(
        got,
        vec![
            ("2026-11-02".into(), 2, 13_980_000),
            ("2026-11-03".into(), 1, 6_990_000)
        ]
    );
    assert_eq!(
        asc::proceeds(&db.pool, &id, "2026-11-03", "2026-11-03")
            .await
            .unwrap()
            .len(),
        1
    );
    asc::succeeded(&db.pool, &id, 4).await.unwrap();
    let c = asc::in_workspace(&db.pool, &ws, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.days_read, c.last_day.as_deref(), c.last_success_at),
        (2, Some("2026-11-03"), Some(4))
    );
    assert_eq!(asc::all(&db.pool, &ws).await.unwrap().len(), 1);

    assert!(
        !asc::delete(&db.pool, &other, &id).await.unwrap(),
        "another workspace's is not deleted"
    );
    assert!(asc::delete(&db.pool, &ws, &id).await.unwrap());
    assert!(
        asc::proceeds(&db.pool, &id, "2026-11-01", "2026-11-30")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(asc::all(&db.pool, &ws).await.unwrap().is_empty());
}
