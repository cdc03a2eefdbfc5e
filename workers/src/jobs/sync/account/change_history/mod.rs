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

mod words;

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

pub use words::amount_text;
use words::{Change, changes_of, level_of, parse_time, title, unix_ms};

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
mod tests;
