//! Negative keyword lists and custom product page ads against the in-process sandbox, on
//! SQLite and PostgreSQL, after a real connect and sync (docs/api/creation.md "Negative
//! keyword lists", "Product pages"):
//!
//! - `lists`: CRUD and validation, another workspace's list 404, readers 403, the `dryRun`
//!   conflicts with synced keywords; a list applied at a campaign and an ad group shows at
//!   the sandbox and in our synced negatives, an apply run again sends nothing, an edit
//!   (a term and a place removed) and a deletion take away only what no other list holds,
//!   and a negative added by hand stays.
//! - `pages`: an app's product pages (default first), custom product page ads created once
//!   (the same call twice makes no second ad), a campaign's ads, the checks, ad statuses
//!   through `productPages/many/{id}` and `creativeSet/*`, and bad input.

mod lists;
mod pages;

use std::sync::Arc;

use crate::harness::Connected;
use searchdeck_common::store;
use searchdeck_provider::AppleAds;

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

/// The first field error's field.
fn field(res: &crate::common::TestResponse) -> String {
    res.json["errors"][0]["field"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A live campaign with an app and at least two live ad groups with live keywords.
#[derive(Debug, Clone)]
struct Picked {
    account_id: String,
    org_id: i64,
    org_key: i64,
    campaign: i64,
    adam_id: i64,
    groups: Vec<i64>,
}

async fn pick(t: &Connected, account_id: &str) -> Picked {
    let pool = &t.app.state.db.pool;
    let (org_key, org_id, campaign, adam_id): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_key, o.org_id, c.id, c.adam_id FROM asa_campaigns c \
         JOIN sync_orgs o ON o.org_key = c.org_key \
         JOIN asa_ad_groups g ON g.org_key = c.org_key AND g.campaign_id = c.id AND g.deleted = 0 \
         WHERE o.account_id = $1 AND c.deleted = 0 AND c.adam_id IS NOT NULL \
           AND EXISTS (SELECT 1 FROM asa_keywords k WHERE k.org_key = g.org_key AND k.ad_group_id = g.id AND k.deleted = 0) \
         GROUP BY o.org_key, o.org_id, c.id, c.adam_id HAVING COUNT(*) >= 2 \
         ORDER BY c.id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let groups: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 ORDER BY id",
    )
    .bind(org_key)
    .bind(campaign)
    .fetch_all(pool)
    .await
    .unwrap();
    Picked {
        account_id: account_id.to_string(),
        org_id,
        org_key,
        campaign,
        adam_id,
        groups,
    }
}

fn scope(p: &Picked) -> String {
    format!("accountId={}&orgId={}", p.account_id, p.org_id)
}
