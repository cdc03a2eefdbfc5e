//! Changes made outside Searchdeck — in Apple's own UI, another tool, the API — read from
//! Apple's change history after each entity sync of a campaign group, into the activity log
//! (docs/api/activity.md, "Changes made outside Searchdeck").
//!
//! The read starts at the group's mark (`store::change_history`: the latest event time
//! read; the first read looks back 30 days): `POST /change-history/query` filtered on
//! `eventTime`, oldest first, with `options.metadata` so each summary names its changed
//! entities and their `detailId`s, then `GET /change-history/{detailId}` for each entity's
//! field changes. Each transaction becomes one notification (key
//! `history:<account id>:<org id>:<transactionId>`, tag `manual_change`, source
//! `apple_ads`, "Apple Ads", the email Apple's `modifiedBy`, dated at the event) with one
//! change record per field change, Apple's entity types and fields mapped to our levels and
//! the table's column names (the ones quick edits write: `dailyBudget`, `defaultBidAmount`,
//! `cpaGoal`, `cptBid`, `status`, `name`, …; money as exact decimals with the group's
//! currency). A transaction whose every change is ours (`store::change_history::is_ours`,
//! Apple's time moved onto our clock by the difference between the two) is skipped: our own
//! edits are in the log already. One made through Apple's API whose every entity we changed
//! nearby is known to be ours before its fields are read ([`made_by_us`]), so our own bulk
//! edits cost no detail calls. Reading the same history again writes nothing twice: a
//! transaction already recorded is skipped, and its records have ids derived from its key.
//!
//! Every call goes through the provider client, so through the shared rate limiter. A
//! failure is the caller's to log: the sync goes on, and the next one reads from the mark.

use std::collections::BTreeMap;

use searchdeck_common::{
    Db, ids,
    store::{
        change_history::{self, Detail, FIRST_READ_DAYS, Mark},
        changes::{self, NewChange},
        notifications::{self, NewNotification},
    },
};
use searchdeck_provider::{
    AppleAds, AppleAdsExt,
    history::{
        AuditFilter, AuditOperator, AuditPagination, AuditQuery, AuditQueryOptions, AuditSortOrder,
        AuditSorting, AuditSummary, AuditUserType, ChangeDetails,
    },
};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::campaign_alerts::Group;
use crate::wire::micros;

/// Summaries asked per page.
const SUMMARY_PAGE: u64 = 1000;
/// Field changes asked per page of one entity's detail.
const DETAIL_PAGE: u32 = 1000;

/// What one read did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    /// Transactions recorded as notifications.
    pub recorded: u32,
    /// Transactions skipped as entirely ours.
    pub ours: u32,
    /// Transactions recorded before (a re-read).
    pub known: u32,
}

/// Our level of Apple's entity type, if we show it.
fn level_of(entity_type: &str) -> Option<&'static str> {
    Some(match entity_type {
        "Campaign" => "CAMPAIGN",
        "AdGroup" => "AD_GROUP",
        "Keyword" | "TargetingKeyword" => "KEYWORD",
        "NegativeKeyword" | "CampaignNegativeKeyword" | "AdGroupNegativeKeyword" => {
            "NEGATIVE_KEYWORD"
        }
        "Ad" => "AD",
        _ => return None,
    })
}

/// Our field name for Apple's `field` of an entity at `level`, and whether it is money.
fn field_of(level: &str, field: &str) -> (String, bool) {
    let mapped = match (level, field) {
        (
            "CAMPAIGN",
            "dailyBudget" | "dailyBudget.value" | "dailyBudget.value.amount" | "dailyBudgetAmount",
        ) => Some(("dailyBudget", true)),
        (
            "AD_GROUP",
            "bidStrategy.bid" | "bidStrategy.bid.amount" | "defaultBid" | "defaultBidAmount",
        ) => Some(("defaultBidAmount", true)),
        ("AD_GROUP", "cpaCap" | "cpaCap.value" | "cpaCap.value.amount" | "cpaGoal") => {
            Some(("cpaGoal", true))
        }
        ("KEYWORD", "bid" | "bid.amount" | "bidAmount" | "cptBid") => Some(("cptBid", true)),
        (_, "status") => Some(("status", false)),
        (_, "name" | "text") => Some(("name", false)),
        _ => None,
    };
    match mapped {
        Some((f, money)) => (f.to_string(), money),
        None => (field.to_string(), false),
    }
}

/// Fields a creation shows (the rest of a new entity's fields are its settings).
const CREATED_FIELDS: &[&str] = &[
    "name",
    "status",
    "dailyBudget",
    "defaultBidAmount",
    "cpaGoal",
    "cptBid",
];

/// An amount as change records write it (`1.5`, `2`): exact, without trailing zeros.
pub fn amount_text(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let m = micros.unsigned_abs();
    let (whole, frac) = (m / 1_000_000, m % 1_000_000);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let frac = format!("{frac:06}");
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
}

/// A field's values as one change-record value: money as an exact decimal, others joined.
fn value_of(values: &[String], money: bool) -> Option<String> {
    if values.is_empty() {
        return None;
    }
    if money && let Some(m) = values.first().and_then(|v| micros(&serde_json::json!(v))) {
        return Some(amount_text(m));
    }
    Some(values.join(", "))
}

/// One field change of Apple's history, mapped.
#[derive(Debug, Clone, PartialEq)]
struct Change {
    level: &'static str,
    entity_id: i64,
    event: &'static str,
    field: String,
    money: bool,
    old_value: Option<String>,
    new_value: Option<String>,
    /// Apple's name or text of the entity and its campaign and ad group, when it gives them.
    meta: BTreeMap<String, String>,
}

/// The field changes of one entity's `ChangeDetails`, mapped; a creation shows its main
/// fields, a deletion one `deleted` change.
fn changes_of(d: &ChangeDetails, row_event: &'static str) -> Vec<Change> {
    let Some(level) = d.entity_type.as_deref().and_then(level_of) else {
        return vec![];
    };
    let Some(entity_id) = d.entity_id.as_deref().and_then(|s| s.parse().ok()) else {
        return vec![];
    };
    let event = d.event_type.map_or(row_event, |e| e.as_str());
    let change = |field: String, money: bool, old: Option<String>, new: Option<String>| Change {
        level,
        entity_id,
        event,
        field,
        money,
        old_value: old,
        new_value: new,
        meta: d.entity_meta_data.clone(),
    };
    if event == "DELETE" {
        return vec![change(
            "deleted".into(),
            false,
            Some("false".into()),
            Some("true".into()),
        )];
    }
    let mut out: Vec<Change> = Vec::new();
    for c in d.changes() {
        let Some(apple) = c.field.as_deref() else {
            continue;
        };
        let (field, money) = field_of(level, apple);
        if field == "deleted" || (event == "CREATE" && !CREATED_FIELDS.contains(&field.as_str())) {
            continue;
        }
        if out.iter().any(|o| o.field == field) {
            continue;
        }
        let old = value_of(&c.old_values, money);
        let new = value_of(&c.new_values, money);
        if old == new {
            continue;
        }
        out.push(change(field, money, old, new));
    }
    out
}

/// "Keyword", "keywords", … for titles.
fn noun(level: &str, n: usize) -> String {
    let one = match level {
        "CAMPAIGN" => "campaign",
        "AD_GROUP" => "ad group",
        "KEYWORD" => "keyword",
        "NEGATIVE_KEYWORD" => "negative keyword",
        "AD" => "ad",
        _ => "item",
    };
    if n == 1 {
        let mut c = one.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    } else {
        format!("{n} {one}s")
    }
}

/// The notification's title: what changed, "in Apple Ads".
fn title(changes: &[Change], action: &str, target: &str) -> String {
    let entities = {
        let mut e: Vec<(&str, i64)> = changes.iter().map(|c| (c.level, c.entity_id)).collect();
        e.sort_unstable();
        e.dedup();
        e.len()
    };
    let what = match action {
        "CREATE" => format!("{} created", noun(target, entities)),
        "DELETE" => format!("{} deleted", noun(target, entities)),
        _ => {
            let first = &changes[0].field;
            let same = changes.iter().all(|c| &c.field == first);
            match (same, first.as_str()) {
                (true, "cptBid" | "defaultBidAmount") => "Bid changed".into(),
                (true, "dailyBudget") => "Daily budget changed".into(),
                (true, "cpaGoal") => "CPA goal changed".into(),
                (true, "name") => "Renamed".into(),
                (true, "status") => match changes[0].new_value.as_deref() {
                    Some("PAUSED")
                        if changes.iter().all(|c| c.new_value == changes[0].new_value) =>
                    {
                        format!("{} paused", noun(target, entities))
                    }
                    Some("ENABLED" | "ACTIVE")
                        if changes.iter().all(|c| c.new_value == changes[0].new_value) =>
                    {
                        format!("{} enabled", noun(target, entities))
                    }
                    _ => "Status changed".into(),
                },
                _ => format!("{} changed", noun(target, entities)),
            }
        }
    };
    format!("{what} in Apple Ads")
}

fn parse_time(s: Option<&str>) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s?, &Rfc3339).ok()
}

fn unix_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

/// One transaction of the history: its summary rows in order.
struct Transaction {
    id: String,
    rows: Vec<AuditSummary>,
    time: OffsetDateTime,
}

/// Reads the history of campaign group `group` (currency `currency`) on from its mark and
/// records the transactions made outside Searchdeck.
pub async fn import(
    db: &Db,
    client: &dyn AppleAds,
    group: &Group,
    currency: Option<&str>,
) -> anyhow::Result<Imported> {
    let local_ms = ids::now_ms();
    let provider_ms = client.server_time().map_or(local_ms, unix_ms);
    // Apple's times moved onto our clock (a sandbox's clock may be set elsewhere).
    let skew_secs = (local_ms - provider_ms) / 1000;
    let mark = change_history::mark(&db.pool, &group.account_id, group.org_id).await?;
    let from_ms = mark
        .as_ref()
        .map_or(provider_ms - FIRST_READ_DAYS * 86_400_000, |m| {
            m.event_time_ms
        });
    let from = OffsetDateTime::from_unix_timestamp_nanos(i128::from(from_ms - 1) * 1_000_000)?;
    let mut summaries: Vec<AuditSummary> = Vec::new();
    let mut offset = 0;
    loop {
        let query = AuditQuery {
            filters: vec![AuditFilter::new(
                "eventTime",
                AuditOperator::GreaterThan,
                serde_json::json!(from.format(&Rfc3339)?),
            )],
            sorting: vec![AuditSorting {
                field: "eventTime".into(),
                order: AuditSortOrder::Asc,
            }],
            pagination: Some(AuditPagination {
                offset,
                page_size: SUMMARY_PAGE,
            }),
            options: Some(AuditQueryOptions {
                metadata: Some("snapshot".into()),
                ..Default::default()
            }),
        };
        let page = client.audit_summaries(group.org_id, &query).await?;
        let n = page.items.len() as u64;
        summaries.extend(page.items);
        offset += n;
        let more = match page.total {
            Some(total) if total > 0 => offset < total,
            _ => n == SUMMARY_PAGE,
        };
        if !more || n == 0 {
            break;
        }
    }
    // Transactions in the order Apple gave them (oldest first).
    let mut transactions: Vec<Transaction> = Vec::new();
    for s in summaries {
        let Some(id) = s.transaction_id.clone() else {
            continue;
        };
        let time = parse_time(s.event_time.as_deref());
        match transactions.iter_mut().find(|t| t.id == id) {
            Some(t) => t.rows.push(s),
            None => {
                let Some(time) = time else {
                    tracing::warn!(transaction = %id, "change history row without event time");
                    continue;
                };
                transactions.push(Transaction {
                    id,
                    rows: vec![s],
                    time,
                })
            }
        }
    }
    let mut done = Imported::default();
    for t in transactions {
        let outcome = transaction(db, client, group, currency, &t, skew_secs).await?;
        match outcome {
            Outcome::Recorded => done.recorded += 1,
            Outcome::Ours => done.ours += 1,
            Outcome::Known => done.known += 1,
        }
        change_history::set_mark(
            &db.pool,
            &group.account_id,
            group.org_id,
            &Mark {
                event_time_ms: unix_ms(t.time),
                transaction_id: Some(t.id.clone()),
            },
            ids::now_ms(),
        )
        .await?;
    }
    tracing::info!(
        org_id = group.org_id,
        recorded = done.recorded,
        ours = done.ours,
        known = done.known,
        "change history read"
    );
    Ok(done)
}

enum Outcome {
    Recorded,
    Ours,
    Known,
}

/// Whether transaction `t` was made through Apple's API and each of its entities was changed
/// by one of our own change records nearby: ours, known without reading its fields (one call
/// per entity; a bulk edit of 2,000 keywords would cost 2,000 at the next sync). A change in
/// Apple's UI, by Apple support, or to an entity we did not touch is read field by field.
async fn made_by_us(
    db: &Db,
    group: &Group,
    t: &Transaction,
    skew_secs: i64,
) -> anyhow::Result<bool> {
    let at = t.time.unix_timestamp() + skew_secs;
    for row in &t.rows {
        if row.user_type != Some(AuditUserType::CustomerApi) {
            return Ok(false);
        }
        let Some(level) = row.entity_type.as_deref().and_then(level_of) else {
            return Ok(false);
        };
        let entities = row.entities();
        if entities.is_empty() {
            return Ok(false);
        }
        for e in entities {
            let Some(id) = e.entity_id else {
                return Ok(false);
            };
            let ours = change_history::entity_changed_by_us(
                &db.pool,
                &group.workspace_id,
                group.org_id,
                level,
                id,
                at,
            )
            .await?;
            if !ours {
                return Ok(false);
            }
        }
    }
    Ok(!t.rows.is_empty())
}

/// Records transaction `t` unless it is recorded already or entirely ours.
async fn transaction(
    db: &Db,
    client: &dyn AppleAds,
    group: &Group,
    currency: Option<&str>,
    t: &Transaction,
    skew_secs: i64,
) -> anyhow::Result<Outcome> {
    let key = format!("history:{}:{}:{}", group.account_id, group.org_id, t.id);
    if notifications::by_key(&db.pool, &group.workspace_id, &key)
        .await?
        .is_some()
    {
        return Ok(Outcome::Known);
    }
    if made_by_us(db, group, t, skew_secs).await? {
        return Ok(Outcome::Ours);
    }
    let mut found: Vec<Change> = Vec::new();
    let mut modified_by = None;
    for row in &t.rows {
        modified_by = modified_by.or_else(|| row.modified_by.clone());
        let row_event = row.event_type.map_or("UPDATE", |e| e.as_str());
        let entities = row.entities();
        if entities.is_empty() && row.count.unwrap_or(0) > 0 {
            tracing::warn!(transaction = %t.id, "change history row without detail ids");
        }
        for e in entities {
            let details = client
                .all_change_details(group.org_id, &e.detail_id, DETAIL_PAGE)
                .await?;
            for d in &details {
                let mut got = changes_of(d, row_event);
                for c in &mut got {
                    for (k, v) in &e.meta {
                        if let Some(v) = v.as_str() {
                            c.meta.entry(k.clone()).or_insert_with(|| v.to_string());
                        }
                    }
                }
                found.extend(got);
            }
        }
    }
    if found.is_empty() {
        return Ok(Outcome::Ours);
    }
    let at = t.time.unix_timestamp();
    let mut all_ours = true;
    for c in &found {
        let d = Detail {
            workspace_id: &group.workspace_id,
            org_id: group.org_id,
            level: c.level,
            entity_id: c.entity_id,
            field: &c.field,
            new_value: c.new_value.as_deref(),
            at: at + skew_secs,
        };
        if !change_history::is_ours(&db.pool, &d).await? {
            all_ours = false;
            break;
        }
    }
    if all_ours {
        return Ok(Outcome::Ours);
    }
    let first = found[0].level;
    let target = if found.iter().all(|c| c.level == first) {
        first
    } else {
        "MIXED"
    };
    let first_event = found[0].event;
    let action = if found.iter().all(|c| c.event == first_event) {
        first_event
    } else {
        "UPDATE"
    };
    // Names from the synced tables (the sync just ran), else from Apple's metadata.
    let mut named = Vec::with_capacity(found.len());
    for c in &found {
        let synced = change_history::entity(&db.pool, group.org_key, c.level, c.entity_id).await?;
        let meta_int = |k: &str| c.meta.get(k).and_then(|v| v.parse::<i64>().ok());
        let campaign_id = synced
            .as_ref()
            .map(|s| s.campaign_id)
            .or_else(|| meta_int("campaignId"))
            .or((c.level == "CAMPAIGN").then_some(c.entity_id));
        let Some(campaign_id) = campaign_id else {
            tracing::warn!(transaction = %t.id, entity_id = c.entity_id, "changed entity of no known campaign");
            continue;
        };
        let name = synced
            .as_ref()
            .map(|s| s.name.clone())
            .or_else(|| c.meta.get("name").or_else(|| c.meta.get("text")).cloned())
            .unwrap_or_else(|| c.entity_id.to_string());
        let campaign_name = match &synced {
            Some(s) if !s.campaign_name.is_empty() => s.campaign_name.clone(),
            _ if c.level == "CAMPAIGN" => name.clone(),
            _ => change_history::entity(&db.pool, group.org_key, "CAMPAIGN", campaign_id)
                .await?
                .map_or_else(|| campaign_id.to_string(), |s| s.name),
        };
        let ad_group_id = synced
            .as_ref()
            .and_then(|s| s.ad_group_id)
            .or_else(|| meta_int("adGroupId"));
        named.push((c, campaign_id, ad_group_id, name, campaign_name));
    }
    let notification = NewNotification {
        workspace_id: group.workspace_id.clone(),
        key: key.clone(),
        tag: notifications::TAG_MANUAL,
        kind: notifications::TYPE_CHANGE,
        title: title(&found, action, target),
        action: action.to_string(),
        target: target.to_string(),
        source: notifications::SOURCE_APPLE_ADS,
        source_name: "Apple Ads".into(),
        user_id: None,
        email: modified_by.clone(),
        rule_id: None,
        account_id: Some(group.account_id.clone()),
        org_id: Some(group.org_id),
        undo_of: None,
        created_at: at,
    };
    let records: Vec<NewChange> = named
        .into_iter()
        .enumerate()
        .map(
            |(i, (c, campaign_id, ad_group_id, name, campaign_name))| NewChange {
                id: format!("{key}:{i}"),
                workspace_id: group.workspace_id.clone(),
                user_id: None,
                user_email: modified_by.clone(),
                account_id: Some(group.account_id.clone()),
                org_id: group.org_id,
                level: c.level,
                entity_id: c.entity_id,
                campaign_id,
                ad_group_id: if c.level == "CAMPAIGN" {
                    None
                } else {
                    ad_group_id
                },
                entity_name: name,
                campaign_name,
                field: c.field.clone(),
                old_value: c.old_value.clone(),
                new_value: c.new_value.clone(),
                currency: c.money.then(|| currency.map(str::to_string)).flatten(),
                source: changes::MANUAL,
                job_id: None,
                created_at: at,
                notification_id: None,
            },
        )
        .collect();
    let (pool, n_ref, r_ref) = (&db.pool, &notification, &records);
    Db::retry_busy(move || async move {
        let mut tx = pool.begin().await?;
        let id = notifications::record(&mut tx, n_ref).await?;
        for r in r_ref {
            let r = NewChange {
                notification_id: Some(id.clone()),
                ..r.clone()
            };
            changes::insert(&mut tx, &r).await?;
        }
        tx.commit().await
    })
    .await?;
    Ok(Outcome::Recorded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn details(v: serde_json::Value) -> ChangeDetails {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn amounts_are_written_as_quick_edits_write_them() {
        assert_eq!(amount_text(1_500_000), "1.5");
        assert_eq!(amount_text(2_000_000), "2");
        assert_eq!(amount_text(1), "0.000001");
        assert_eq!(amount_text(-250_000), "-0.25");
    }

    #[test]
    fn apples_fields_become_our_columns() {
        let d = details(json!({
            "entityType": "AdGroup", "entityId": "55", "eventType": "UPDATE",
            "details": [{"changes": [
                {"field": "bidStrategy.bid", "oldValues": ["1.50"], "newValues": ["2"]},
                {"field": "cpaCap.value", "oldValues": [], "newValues": ["3.25"]},
                {"field": "status", "oldValues": ["ENABLED"], "newValues": ["PAUSED"]},
                {"field": "startTime", "oldValues": ["a"], "newValues": ["b"]},
            ]}],
        }));
        let got: Vec<_> = changes_of(&d, "UPDATE")
            .into_iter()
            .map(|c| (c.level, c.field, c.money, c.old_value, c.new_value))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "AD_GROUP",
                    "defaultBidAmount".into(),
                    true,
                    Some("1.5".into()),
                    Some("2".into())
                ),
                (
                    "AD_GROUP",
                    "cpaGoal".into(),
                    true,
                    None,
                    Some("3.25".into())
                ),
                (
                    "AD_GROUP",
                    "status".into(),
                    false,
                    Some("ENABLED".into()),
                    Some("PAUSED".into())
                ),
                (
                    "AD_GROUP",
                    "startTime".into(),
                    false,
                    Some("a".into()),
                    Some("b".into())
                ),
            ]
        );
        let created = details(json!({
            "entityType": "Keyword", "entityId": "9", "eventType": "CREATE",
            "details": [{"changes": [
                {"field": "text", "newValues": ["shoes"]},
                {"field": "matchType", "newValues": ["EXACT"]},
                {"field": "bid", "newValues": ["1"]},
            ]}],
        }));
        let fields: Vec<_> = changes_of(&created, "CREATE")
            .into_iter()
            .map(|c| c.field)
            .collect();
        assert_eq!(fields, ["name", "cptBid"]);
        let deleted = details(
            json!({"entityType": "Ad", "entityId": "3", "eventType": "DELETE",
            "details": [{"changes": [{"field": "deleted", "oldValues": ["false"], "newValues": ["true"]}]}]}),
        );
        assert_eq!(changes_of(&deleted, "DELETE")[0].field, "deleted");
        let creative =
            details(json!({"entityType": "Creative", "entityId": "3", "eventType": "UPDATE"}));
        assert!(changes_of(&creative, "UPDATE").is_empty());
    }

    #[test]
    fn titles_say_what_changed() {
        let c = |level: &'static str, id: i64, field: &str, new: &str| Change {
            level,
            entity_id: id,
            event: "UPDATE",
            field: field.into(),
            money: false,
            old_value: None,
            new_value: Some(new.into()),
            meta: BTreeMap::new(),
        };
        assert_eq!(
            title(&[c("KEYWORD", 1, "cptBid", "2")], "UPDATE", "KEYWORD"),
            "Bid changed in Apple Ads"
        );
        assert_eq!(
            title(
                &[
                    c("KEYWORD", 1, "status", "PAUSED"),
                    c("KEYWORD", 2, "status", "PAUSED")
                ],
                "UPDATE",
                "KEYWORD"
            ),
            "2 keywords paused in Apple Ads"
        );
        assert_eq!(
            title(&[c("CAMPAIGN", 1, "name", "x")], "CREATE", "CAMPAIGN"),
            "Campaign created in Apple Ads"
        );
        assert_eq!(
            title(
                &[
                    c("CAMPAIGN", 1, "dailyBudget", "5"),
                    c("AD_GROUP", 2, "status", "PAUSED")
                ],
                "UPDATE",
                "MIXED"
            ),
            "2 items changed in Apple Ads"
        );
    }
}
