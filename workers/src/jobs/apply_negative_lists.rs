//! `apply-negative-lists`: Apple's negative keywords at each place of the payload made to
//! match the workspace's negative keyword lists (docs/api/creation.md "Negative keyword
//! lists", docs/sync-and-jobs.md).
//!
//! At each place (a campaign, or an ad group of one): the terms the lists hold there now
//! (`store::negative_lists::terms_at`), Apple's live negatives there (a `query`), then one
//! `bulk-create` of the terms Apple lacks and one `bulk-delete` of the negatives a list made
//! there (`negative_list_made`, recorded before the create is sent, so a worker that dies
//! after Apple's answer still knows) that no list holds any more. Everything Apple answered
//! is written to our synced negative keywords at once, so the NEGATIVE table shows it
//! before the next sync, with a change record per negative added or deleted in the job's
//! activity-log notification (key `job:<job id>`, by the member who saved the list). A rerun
//! finds Apple already in line and sends nothing.

use std::collections::{BTreeMap, HashMap, HashSet};

use searchdeck_common::{
    ids,
    jobs::{ApplyNegativeLists, ApplyNegativeListsProgress, PlaceError, PlaceRef},
    queue::JobError,
    store::{
        self,
        activity::changes,
        activity::notifications::{self, NewNotification},
        negative_lists::{ListKeyword, Place},
        synced::{bulk, edits, entities},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, error::ApiErrorBody};
use serde_json::{Value, json};

use crate::wire::{job_error, negative};
use crate::{Done, Handler, JobContext};

impl Handler for ApplyNegativeLists {
    async fn run(
        &self,
        ctx: &JobContext<Self>,
    ) -> Result<Done<ApplyNegativeListsProgress>, JobError> {
        let mut progress = ApplyNegativeListsProgress {
            places_total: self.places.len() as u64,
            ..Default::default()
        };
        // Places grouped by connection and campaign group: one client each.
        let mut groups: BTreeMap<(String, i64), Vec<&PlaceRef>> = BTreeMap::new();
        for p in &self.places {
            groups
                .entry((p.account_id.clone(), p.org_id))
                .or_default()
                .push(p);
        }
        let total = self.places.len() as i64;
        let notification = notification_of(self, ctx).await?;
        ctx.progress("Applying negative keyword lists", 0, total, Some(&progress))
            .await;
        for ((account_id, org_id), places) in groups {
            let Some(account) = store::accounts::by_id(&ctx.runtime.db.pool, &account_id).await?
            else {
                tracing::info!(account.id = %account_id, "a negative list's connection is gone");
                progress.places_done += places.len() as u64;
                continue;
            };
            let client = ctx.runtime.provider_for(&account)?;
            let org_key = store::synced::org_of(&ctx.runtime.db.pool, &account_id, org_id)
                .await?
                .map(|o| o.org_key);
            for place in places {
                ctx.check_cancelled()?;
                let scope = (client.as_ref(), org_key, &notification);
                apply_at(self, ctx, scope, place, &mut progress).await?;
                progress.places_done += 1;
                ctx.progress(
                    "Applying negative keyword lists",
                    progress.places_done as i64,
                    total,
                    Some(&progress),
                )
                .await;
            }
        }
        let (added, removed) = (progress.created, progress.deleted);
        crate::apply::retitle(ctx, &notification, |_| {
            format!("Negative keyword lists: {added} added, {removed} removed")
        })
        .await?;
        tracing::info!(
            job.id = %ctx.job_id,
            created = progress.created,
            deleted = progress.deleted,
            "negative keyword lists applied"
        );
        let message = if progress.errors.is_empty() {
            "Negative keyword lists applied"
        } else {
            "Negative keyword lists applied with errors"
        };
        Ok(Done::with_progress(message, progress))
    }
}

/// The job's notification (key `job:<job id>`, tag manual change, by the member who saved the
/// list), written with its first change record.
async fn notification_of(
    job: &ApplyNegativeLists,
    ctx: &JobContext<ApplyNegativeLists>,
) -> Result<NewNotification, JobError> {
    let member = match &job.user_id {
        Some(user) => notifications::member_name(&ctx.runtime.db.pool, user).await?,
        None => None,
    };
    let (name, email) = member.map_or((String::new(), None), |(n, e)| (n, Some(e)));
    let one = |f: fn(&PlaceRef) -> String| {
        let all: HashSet<String> = job.places.iter().map(f).collect();
        (all.len() == 1).then(|| all.into_iter().next()).flatten()
    };
    Ok(NewNotification {
        workspace_id: job.workspace_id.clone(),
        key: format!("job:{}", ctx.job_id),
        tag: notifications::TAG_MANUAL,
        kind: notifications::TYPE_CHANGE,
        title: "Negative keyword lists applied".into(),
        action: "UPDATE".into(),
        target: "NEGATIVE_KEYWORD".into(),
        source: notifications::SOURCE_USER,
        source_name: name,
        user_id: job.user_id.clone(),
        email,
        rule_id: None,
        account_id: one(|p| p.account_id.clone()),
        org_id: one(|p| p.org_id.to_string()).and_then(|o| o.parse().ok()),
        undo_of: None,
        created_at: ids::now_ms() / 1000,
    })
}

/// Writes one change record per negative added (`created`) or deleted (`deleted`) at `place`,
/// in `notification`.
async fn record(
    tx: &mut sqlx::AnyConnection,
    (job_id, org_key, notification): (&str, i64, &NewNotification),
    place: &PlaceRef,
    created: &[entities::NegativeKeyword],
    deleted: &[&entities::NegativeKeyword],
) -> Result<(), JobError> {
    if created.is_empty() && deleted.is_empty() {
        return Ok(());
    }
    let campaign_name = bulk::rows(
        &mut *tx,
        org_key,
        "CAMPAIGN",
        "name",
        None,
        &[place.campaign_id],
    )
    .await?
    .into_iter()
    .next()
    .map(|r| r.name)
    .unwrap_or_default();
    let notification_id = notifications::record(&mut *tx, notification).await?;
    let changed = created
        .iter()
        .map(|n| (n, "created", None, Some(n.match_type.clone())))
        .chain(deleted.iter().map(|n| {
            (
                *n,
                "deleted",
                Some(false.to_string()),
                Some(true.to_string()),
            )
        }));
    for (n, field, old, new) in changed {
        changes::insert(
            &mut *tx,
            &changes::NewChange {
                id: ids::new_id(),
                workspace_id: notification.workspace_id.clone(),
                user_id: notification.user_id.clone(),
                user_email: notification.email.clone(),
                account_id: Some(place.account_id.clone()),
                org_id: place.org_id,
                level: "NEGATIVE_KEYWORD",
                entity_id: n.id,
                campaign_id: place.campaign_id,
                ad_group_id: place.ad_group_id,
                entity_name: n.text.clone(),
                campaign_name: campaign_name.clone(),
                field: field.into(),
                old_value: old,
                new_value: new,
                currency: None,
                source: changes::MANUAL,
                job_id: Some(job_id.to_string()),
                notification_id: Some(notification_id.clone()),
                created_at: ids::now_ms() / 1000,
            },
        )
        .await?;
    }
    Ok(())
}

/// The key Apple compares negatives by: text (case-insensitive) and match type.
fn key(text: &str, match_type: &str) -> (String, String) {
    (text.trim().to_lowercase(), match_type.to_ascii_uppercase())
}

/// Whether a refusal says the negative already exists.
fn duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}

/// Apple's live negatives at `place` (campaign-level ones for a campaign place).
async fn live_at(
    client: &dyn AppleAds,
    place: &PlaceRef,
) -> Result<Vec<entities::NegativeKeyword>, JobError> {
    let mut filters = vec![
        json!({ "field": "campaignId", "operator": "EQUALS", "value": [place.campaign_id] }),
        json!({ "field": "deleted", "operator": "EQUALS", "value": [false] }),
    ];
    if let Some(g) = place.ad_group_id {
        filters.push(json!({ "field": "adGroupId", "operator": "EQUALS", "value": [g] }));
    }
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let query =
            json!({ "filters": filters, "pagination": { "offset": offset, "pageSize": 1000 } });
        let page = client
            .query::<Value>(place.org_id, Entity::NegativeKeywords, &query)
            .await
            .map_err(job_error)?;
        let n = page.items.len();
        for v in &page.items {
            let row = negative(v)?;
            if row.ad_group_id == place.ad_group_id && !row.deleted {
                out.push(row);
            }
        }
        offset += n;
        if n < 1000 || page.total.is_some_and(|t| offset as u64 >= t) {
            return Ok(out);
        }
    }
}

async fn apply_at(
    job: &ApplyNegativeLists,
    ctx: &JobContext<ApplyNegativeLists>,
    (client, org_key, notification): (&dyn AppleAds, Option<i64>, &NewNotification),
    place: &PlaceRef,
    progress: &mut ApplyNegativeListsProgress,
) -> Result<(), JobError> {
    let db = &ctx.runtime.db;
    let at = Place {
        account_id: place.account_id.clone(),
        org_id: place.org_id,
        campaign_id: place.campaign_id,
        ad_group_id: place.ad_group_id,
        campaign_name: String::new(),
        ad_group_name: None,
    };
    let wanted: Vec<ListKeyword> =
        store::negative_lists::terms_at(&db.pool, &job.workspace_id, &at).await?;
    let wanted_keys: HashSet<_> = wanted.iter().map(|k| key(&k.text, &k.match_type)).collect();
    let live = live_at(client, place).await?;
    let live_keys: HashSet<_> = live.iter().map(|n| key(&n.text, &n.match_type)).collect();
    let error = |text: Option<String>, message: String| PlaceError {
        campaign_id: place.campaign_id,
        ad_group_id: place.ad_group_id,
        text,
        message,
    };

    // What the lists hold and Apple lacks, recorded as made by a list before it is sent.
    let missing: Vec<&ListKeyword> = wanted
        .iter()
        .filter(|k| !live_keys.contains(&key(&k.text, &k.match_type)))
        .collect();
    let mut created = Vec::new();
    let mut refused = Vec::new();
    if !missing.is_empty() {
        let claimed: Vec<ListKeyword> = missing.iter().map(|k| (*k).clone()).collect();
        let mut conn = db.pool.acquire().await?;
        store::negative_lists::claim(&mut conn, &at, &claimed).await?;
        drop(conn);
        let data: Vec<Value> = missing
            .iter()
            .map(|k| {
                // A negative belongs to a campaign or to an ad group: one of the two ids.
                let mut d =
                    json!({ "text": k.text, "matchType": k.match_type, "status": "ENABLED" });
                match place.ad_group_id {
                    Some(g) => d["adGroupId"] = json!(g),
                    None => d["campaignId"] = json!(place.campaign_id),
                }
                d
            })
            .collect();
        let answers = client
            .bulk::<Value>(place.org_id, Entity::NegativeKeywords, "create", &data)
            .await
            .map_err(job_error)?;
        let mut by_index: HashMap<usize, _> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        let mut lost = false;
        for (i, k) in missing.iter().enumerate() {
            match by_index.remove(&i) {
                Some(Ok(v)) => created.push(negative(&v)?),
                // Made by an earlier attempt whose answer was lost: read back below.
                Some(Err(e)) if duplicate(&e) => lost = true,
                Some(Err(e)) => {
                    progress
                        .errors
                        .push(error(Some(k.text.clone()), message_of(&e)));
                    refused.push((*k).clone());
                }
                None => lost = true,
            }
        }
        if lost {
            let known: HashSet<i64> = live.iter().chain(&created).map(|n| n.id).collect();
            let missing_keys: HashSet<_> = missing
                .iter()
                .map(|k| key(&k.text, &k.match_type))
                .collect();
            for n in live_at(client, place).await? {
                if !known.contains(&n.id) && missing_keys.contains(&key(&n.text, &n.match_type)) {
                    created.push(n);
                }
            }
        }
    }

    // What a list made here and no list holds any more (a negative the user added by hand
    // was never recorded as made, so it stays).
    let made: HashSet<(String, String)> = store::negative_lists::made_at(&db.pool, &at)
        .await?
        .iter()
        .map(|k| key(&k.text, &k.match_type))
        .collect();
    let stale: Vec<&entities::NegativeKeyword> = live
        .iter()
        .filter(|n| {
            let k = key(&n.text, &n.match_type);
            !wanted_keys.contains(&k) && made.contains(&k)
        })
        .collect();
    let mut deleted = Vec::new();
    if !stale.is_empty() {
        let data: Vec<Value> = stale.iter().map(|n| json!({ "id": n.id })).collect();
        let answers = client
            .bulk_json(place.org_id, Entity::NegativeKeywords, "delete", &data)
            .await
            .map_err(job_error)?;
        let mut by_index: HashMap<usize, _> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        for (i, n) in stale.iter().enumerate() {
            match by_index.remove(&i) {
                Some(Ok(_)) => deleted.push(*n),
                Some(Err(e)) if e.code.contains("DELETED") || e.code.contains("NOT_FOUND") => {
                    deleted.push(*n)
                }
                Some(Err(e)) => progress
                    .errors
                    .push(error(Some(n.text.clone()), message_of(&e))),
                None => progress.errors.push(error(
                    Some(n.text.clone()),
                    "Apple Ads did not answer for this item".into(),
                )),
            }
        }
    }
    // Made negatives that are gone and no longer wanted (deleted here or by hand).
    let gone: Vec<ListKeyword> = made
        .iter()
        .filter(|k| !wanted_keys.contains(*k))
        .filter(|k| {
            !live_keys.contains(*k) || deleted.iter().any(|n| key(&n.text, &n.match_type) == **k)
        })
        .map(|(text, match_type)| ListKeyword {
            text: text.clone(),
            match_type: match_type.clone(),
        })
        .chain(refused)
        .collect();

    // Recorded and shown at once, in one transaction.
    let mut tx = db.pool.begin().await?;
    store::negative_lists::release(&mut tx, &at, &gone).await?;
    if let Some(org_key) = org_key {
        entities::upsert(&mut tx, org_key, &created, ids::now_ms() / 1000).await?;
        for n in &deleted {
            edits::set_deleted(&mut tx, "NEGATIVE_KEYWORD", org_key, n.id).await?;
        }
        let scope = (ctx.job_id.as_str(), org_key, notification);
        record(&mut tx, scope, place, &created, &deleted).await?;
    }
    tx.commit().await?;
    progress.created += created.len() as u64;
    progress.deleted += deleted.len() as u64;
    Ok(())
}
