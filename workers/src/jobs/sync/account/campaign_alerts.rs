//! Alerts the entity sync raises (docs/api/rules.md "Alerts"): when a listed campaign's
//! serving-state reasons (`systemStatusReasons` in the reference, Apple's older
//! `servingStateReasons` read too) newly contain a reason of one of these kinds, an alert is
//! stored with its `deliver-alert` job in the transaction that stores the page of campaigns:
//!
//! - `BUDGET_EXHAUSTED`: `LIFETIME_BUDGET_EXHAUSTED`, `MONTHLY_BUDGET_EXHAUSTED`,
//!   `BUDGET_ORDER_EXHAUSTED` (and the older `TOTAL_BUDGET_EXHAUSTED`, `DAILY_CAP_EXHAUSTED`);
//! - `AD_GROUP_MISSING`: `AD_GROUPS_MISSING`, `AUTOMATED_KEYWORDS_REQUIRED_AD_GROUP_MISSING`;
//! - `PAUSED_BY_SYSTEM`: `PAUSED_BY_SYSTEM`.
//!
//! "Newly" compares with the campaign as last synced: a reason already there raises nothing,
//! so an alert's cause (`<kind>:<org>:<campaign>:<since>`, `since` the listing that first saw
//! it) is raised once, and again only after the reason cleared and came back. A campaign seen
//! for the first time (a first sync) or deleted raises nothing. Because the comparison, the
//! upsert and the alerts commit together, a sync that runs again cannot lose or repeat one.

use std::collections::{BTreeSet, HashMap};

use searchdeck_common::{
    Db, ids,
    jobs::DeliverAlert,
    queue::{
        JobError,
        outbox::{self, OutboxOptions},
    },
    store::{self, alerts::NewAlert, synced::entities},
};
use serde_json::Value;

/// The synced campaign group a page of campaigns belongs to.
#[derive(Debug, Clone)]
pub struct Group {
    pub workspace_id: String,
    pub account_id: String,
    pub org_id: i64,
    pub org_key: i64,
}

/// The alert kind a serving-state reason raises, if any.
pub fn kind_of(reason: &str) -> Option<&'static str> {
    match reason {
        "LIFETIME_BUDGET_EXHAUSTED"
        | "MONTHLY_BUDGET_EXHAUSTED"
        | "BUDGET_ORDER_EXHAUSTED"
        | "TOTAL_BUDGET_EXHAUSTED"
        | "DAILY_CAP_EXHAUSTED" => Some(store::alerts::BUDGET_EXHAUSTED),
        "AD_GROUPS_MISSING"
        | "AUTOMATED_KEYWORDS_REQUIRED_AD_GROUP_MISSING"
        | "AD_GROUP_MISSING" => Some(store::alerts::AD_GROUP_MISSING),
        "PAUSED_BY_SYSTEM" => Some(store::alerts::PAUSED_BY_SYSTEM),
        _ => None,
    }
}

/// The serving-state reasons of a campaign's provider JSON.
pub fn reasons(body: Option<&str>) -> BTreeSet<String> {
    let Some(v) = body.and_then(|b| serde_json::from_str::<Value>(b).ok()) else {
        return BTreeSet::new();
    };
    ["systemStatusReasons", "servingStateReasons"]
        .iter()
        .filter_map(|k| v[k].as_array())
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

/// The alerts of one campaign whose reasons went from `before` to `after` (one per kind).
fn alerts_of(
    group: &Group,
    campaign: &entities::Campaign,
    before: &BTreeSet<String>,
    after: &BTreeSet<String>,
    listed_at: i64,
) -> Vec<NewAlert> {
    let mut by_kind: Vec<(&'static str, Vec<&str>)> = Vec::new();
    for reason in after.difference(before) {
        let Some(kind) = kind_of(reason) else {
            continue;
        };
        match by_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, list)) => list.push(reason),
            None => by_kind.push((kind, vec![reason])),
        }
    }
    by_kind
        .into_iter()
        .map(|(kind, list)| {
            let name = &campaign.name;
            let title = match kind {
                store::alerts::BUDGET_EXHAUSTED => format!("Budget exhausted: {name}"),
                store::alerts::AD_GROUP_MISSING => format!("Ad group missing: {name}"),
                _ => format!("Paused by Apple: {name}"),
            };
            NewAlert {
                id: ids::new_id(),
                workspace_id: group.workspace_id.clone(),
                kind,
                cause_key: format!("{kind}:{}:{}:{listed_at}", group.org_id, campaign.id),
                account_id: Some(group.account_id.clone()),
                org_id: Some(group.org_id),
                campaign_id: Some(campaign.id),
                rule_id: None,
                run_id: None,
                title,
                message: format!(
                    "Apple Ads stopped serving campaign {name} ({}): {}.",
                    campaign.id,
                    list.join(", ")
                ),
                emails: Vec::new(),
                email: true,
                slack: true,
                created_at: listed_at,
            }
        })
        .collect()
}

/// Stores a listed page of campaigns of `group` and, in the same transaction, the alerts
/// (with their delivery jobs) of the reasons that newly appeared on them; returns how many
/// alerts it raised. The transaction reads before it writes, so on SQLite it can meet a
/// writer that took the lock meanwhile: it is run again then ([`Db::retry_busy`]).
pub async fn store_campaigns(
    db: &Db,
    group: &Group,
    rows: &[entities::Campaign],
    listed_at: i64,
) -> Result<u64, JobError> {
    Ok(Db::retry_busy(|| store_page(db, group, rows, listed_at)).await?)
}

async fn store_page(
    db: &Db,
    group: &Group,
    rows: &[entities::Campaign],
    listed_at: i64,
) -> Result<u64, sqlx::Error> {
    let ids: Vec<i64> = rows.iter().map(|c| c.id).collect();
    let mut tx = db.pool.begin().await?;
    let before: HashMap<i64, BTreeSet<String>> =
        store::synced::campaign_bodies(&mut *tx, group.org_key, &ids)
            .await?
            .into_iter()
            .map(|(id, body)| (id, reasons(body.as_deref())))
            .collect();
    entities::upsert(&mut tx, group.org_key, rows, listed_at).await?;
    let mut raised = 0;
    for c in rows.iter().filter(|c| !c.deleted) {
        let Some(old) = before.get(&c.id) else {
            continue;
        };
        for alert in alerts_of(group, c, old, &reasons(c.body.as_deref()), listed_at) {
            if store::alerts::insert(&mut *tx, &alert).await? {
                outbox::push(
                    &mut *tx,
                    &DeliverAlert {
                        alert_id: alert.id.clone(),
                    },
                    OutboxOptions::default(),
                )
                .await?;
                raised += 1;
                tracing::info!(alert.id = %alert.id, kind = alert.kind, campaign = c.id, "campaign alert raised");
            }
        }
    }
    tx.commit().await?;
    Ok(raised)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn newly_appeared_reasons_raise_one_alert_per_kind() {
        let group = Group {
            workspace_id: "w".into(),
            account_id: "a".into(),
            org_id: 42,
            org_key: 1,
        };
        let c = entities::Campaign {
            id: 7,
            name: "Brand".into(),
            ..Default::default()
        };
        let raised = alerts_of(
            &group,
            &c,
            &set(&["PAUSED_BY_SYSTEM"]),
            &set(&[
                "PAUSED_BY_SYSTEM",
                "LIFETIME_BUDGET_EXHAUSTED",
                "MONTHLY_BUDGET_EXHAUSTED",
                "AD_GROUPS_MISSING",
                "SCHEDULE_PENDING",
            ]),
            100,
        );
        let kinds: Vec<(&str, &str)> = raised
            .iter()
            .map(|a| (a.kind, a.cause_key.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("AD_GROUP_MISSING", "AD_GROUP_MISSING:42:7:100"),
                ("BUDGET_EXHAUSTED", "BUDGET_EXHAUSTED:42:7:100"),
            ],
            "PAUSED_BY_SYSTEM was there already; SCHEDULE_PENDING raises nothing"
        );
        assert_eq!(
            raised[1].message,
            "Apple Ads stopped serving campaign Brand (7): LIFETIME_BUDGET_EXHAUSTED, MONTHLY_BUDGET_EXHAUSTED."
        );
        assert!(
            alerts_of(
                &group,
                &c,
                &set(&["PAUSED_BY_SYSTEM"]),
                &set(&["PAUSED_BY_SYSTEM"]),
                200
            )
            .is_empty()
        );
        assert_eq!(
            reasons(Some(
                r#"{"systemStatusReasons": ["PAUSED_BY_SYSTEM"], "servingStateReasons": ["DAILY_CAP_EXHAUSTED"]}"#
            )),
            set(&["DAILY_CAP_EXHAUSTED", "PAUSED_BY_SYSTEM"])
        );
        assert!(reasons(Some("not json")).is_empty());
        assert!(reasons(None).is_empty());
    }
}
