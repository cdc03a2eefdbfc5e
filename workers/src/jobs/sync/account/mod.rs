//! `sync-account`: stores every entity of each selected campaign group (v1 ad account) of a
//! connection — the ad account's currency and time zone, campaigns, ad groups, keywords,
//! campaign- and ad-group-level negative keywords, ads, creatives, product pages and the
//! promoted apps — then enqueues `sync-reports`.
//!
//! Each entity kind is listed completely through `POST /{entity}/query`, 1,000 rows a page
//! (the largest page the sandbox and Apple accept for queries), and upserted page by page by
//! provider id, every row stamped with this listing's start; once a listing is complete, the
//! rows it did not stamp are marked deleted. A retried or resumed run lists everything again
//! and ends with the same rows. A page of campaigns also raises, in the transaction that
//! stores it, the alerts of serving-state reasons that newly appeared on them
//! ([`super::campaign_alerts`]). Once a group's entities are stored, Apple's change history
//! is read on from where the last sync stopped ([`super::change_history`]): changes made
//! outside Searchdeck become notifications of the activity log; a failure of that read is
//! logged and does not fail the sync.
//!
//! Two steps of the sync live beside it: [`campaign_alerts`] (the campaigns' delivery
//! problems raised from each page of campaigns) and [`change_history`] (Apple's change
//! history of the group's entities imported after the listing).

pub mod campaign_alerts;
pub mod change_history;

use searchdeck_common::{
    ids,
    jobs::{SyncAccount, SyncAccountProgress, SyncReports},
    queue::{
        Job, JobError,
        outbox::{self, OutboxOptions},
    },
    store::{
        self,
        accounts::AccountRow,
        synced::{self, entities},
    },
    tasks::NewTask,
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, ProviderError};
use serde_json::{Value, json};

use super::{connection, record_failure};
use crate::{
    Done, Handler, JobContext, Runtime,
    wire::{ad, ad_group, campaign, creative, job_error, keyword, negative, product_page, text},
};
use campaign_alerts::Group;

/// How a listed page of one entity kind is stored: upserted; campaigns also raise the alerts
/// of their newly appeared serving-state reasons ([`campaign_alerts::store_campaigns`]).
trait Listed: entities::Entity + Sized + Send + Sync {
    async fn store(
        db: &searchdeck_common::Db,
        group: &Group,
        rows: &[Self],
        listed_at: i64,
    ) -> Result<(), JobError> {
        let mut conn = db.pool.acquire().await?;
        entities::upsert(&mut conn, group.org_key, rows, listed_at).await?;
        Ok(())
    }
}

impl Listed for entities::Campaign {
    async fn store(
        db: &searchdeck_common::Db,
        group: &Group,
        rows: &[Self],
        listed_at: i64,
    ) -> Result<(), JobError> {
        campaign_alerts::store_campaigns(db, group, rows, listed_at).await?;
        Ok(())
    }
}
impl Listed for entities::AdGroup {}
impl Listed for entities::Keyword {}
impl Listed for entities::NegativeKeyword {}
impl Listed for entities::Ad {}
impl Listed for entities::Creative {}
impl Listed for entities::ProductPage {}

/// Largest page of an entity query.
pub const QUERY_PAGE: u64 = 1000;

/// Entity kinds listed per campaign group (one progress step each).
const KINDS: u32 = 9;

/// Lists every `entity` of ad account `org_id` page by page (ascending ids, so pages do not
/// shift), handing each page to `store`. Returns the rows listed.
async fn list_all<F, Fut>(
    client: &dyn AppleAds,
    org_id: i64,
    entity: Entity,
    mut store: F,
) -> Result<u64, JobError>
where
    F: FnMut(Vec<Value>) -> Fut,
    Fut: std::future::Future<Output = Result<(), JobError>>,
{
    let mut offset = 0u64;
    loop {
        let query = json!({
            "sorting": [{ "field": "id", "order": "ASC" }],
            "pagination": { "offset": offset, "pageSize": QUERY_PAGE, "fetchTotalCount": true },
        });
        let page = client
            .query::<Value>(org_id, entity, &query)
            .await
            .map_err(job_error)?;
        let n = page.items.len() as u64;
        store(page.items).await?;
        offset += n;
        let more = match page.total {
            Some(total) => offset < total,
            None => n == QUERY_PAGE,
        };
        if !more || n == 0 {
            return Ok(offset);
        }
    }
}

impl Handler for SyncAccount {
    /// The sync is given up: the connection's data is not arriving ([`record_failure`]).
    async fn gave_up(&self, runtime: &Runtime, reason: &str) {
        record_failure(runtime, &self.account_id, reason).await;
    }

    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<SyncAccountProgress>, JobError> {
        match sync(self, ctx).await {
            // The connection removed while its sync ran takes its groups' rows with it, so
            // whatever the sync wrote next failed: it ends quietly, as it would have
            // started, at whichever point the removal caught it.
            Err(e)
                if !matches!(e, JobError::Cancelled)
                    && matches!(
                        connection(&ctx.runtime.db, &self.account_id).await,
                        Ok(None)
                    ) =>
            {
                tracing::info!(account_id = %self.account_id, error = %e, "connection removed during its sync; the sync ends");
                Ok(Done::message("Connection removed"))
            }
            outcome => outcome,
        }
    }
}

/// Every selected campaign group of the connection, one after another.
async fn sync(
    job: &SyncAccount,
    ctx: &JobContext<SyncAccount>,
) -> Result<Done<SyncAccountProgress>, JobError> {
    let db = &ctx.runtime.db;
    let Some(account) = connection(db, &job.account_id).await? else {
        tracing::info!(account_id = %job.account_id, "connection gone; nothing to sync");
        return Ok(Done::message("Connection removed"));
    };
    let client = ctx.runtime.provider_for(&account)?;
    let orgs: Vec<_> = store::accounts::orgs(&db.pool, &account.id)
        .await?
        .into_iter()
        .filter(|o| o.selected)
        .collect();
    let mut progress = SyncAccountProgress {
        orgs_total: orgs.len() as u32,
        ..Default::default()
    };
    let total_steps = i64::from(KINDS * progress.orgs_total.max(1)) + 1;
    for (i, org) in orgs.iter().enumerate() {
        let base = i64::from(KINDS) * i as i64;
        let step = |k: i64| base + k;
        ctx.check_cancelled()?;
        let name = &org.display_name;
        ctx.progress(
            &format!("Syncing {name}: ad account"),
            step(0),
            total_steps,
            Some(&progress),
        )
        .await;
        let details = client.ad_account(org.org_id).await.map_err(job_error)?;
        let currency = details.currency.clone().or_else(|| org.currency.clone());
        let time_zone = details.timezone.clone().or_else(|| org.time_zone.clone());
        let org_key = synced::ensure_org(
            &db.pool,
            &account.id,
            org.org_id,
            currency.as_deref(),
            time_zone.as_deref(),
        )
        .await?;
        // This listing's stamp: rows a complete listing leaves older are gone at Apple.
        let listed_at = ids::now_ms() / 1000;
        let group = Group {
            workspace_id: account.workspace_id.clone(),
            account_id: account.id.clone(),
            org_id: org.org_id,
            org_key,
        };

        macro_rules! sync_kind {
            ($k:expr, $label:expr, $path:expr, $convert:ident, $entity:ty) => {{
                ctx.check_cancelled()?;
                ctx.progress(
                    &format!("Syncing {name}: {}", $label),
                    step($k),
                    total_steps,
                    Some(&progress),
                )
                .await;
                let started = std::time::Instant::now();
                let listed = list_all(client.as_ref(), org.org_id, $path, |items| {
                    let db = db.clone();
                    let group = group.clone();
                    async move {
                        let rows = items.iter().map($convert).collect::<Result<Vec<_>, _>>()?;
                        <$entity as Listed>::store(&db, &group, &rows, listed_at).await
                    }
                })
                .await?;
                progress.entities += listed;
                let mut conn = db.pool.acquire().await?;
                entities::mark_unlisted_deleted::<$entity>(&mut conn, org_key, listed_at).await?;
                tracing::info!(
                    org_id = org.org_id,
                    kind = $path.path(),
                    listed,
                    ms = started.elapsed().as_millis() as u64,
                    "entities listed"
                );
            }};
        }

        sync_kind!(
            1,
            "campaigns",
            Entity::Campaigns,
            campaign,
            entities::Campaign
        );
        sync_kind!(
            2,
            "ad groups",
            Entity::AdGroups,
            ad_group,
            entities::AdGroup
        );
        sync_kind!(3, "keywords", Entity::Keywords, keyword, entities::Keyword);
        sync_kind!(
            4,
            "negative keywords",
            Entity::NegativeKeywords,
            negative,
            entities::NegativeKeyword
        );
        sync_kind!(5, "ads", Entity::Ads, ad, entities::Ad);
        sync_kind!(
            6,
            "creatives",
            Entity::Creatives,
            creative,
            entities::Creative
        );
        sync_kind!(
            7,
            "product pages",
            Entity::ProductPages,
            product_page,
            entities::ProductPage
        );

        ctx.check_cancelled()?;
        ctx.progress(
            &format!("Syncing {name}: apps"),
            step(8),
            total_steps,
            Some(&progress),
        )
        .await;
        let adam_ids = synced::app_ids(&db.pool, org_key).await?;
        let mut apps = Vec::new();
        for adam_id in adam_ids {
            match client.app_details(org.org_id, adam_id).await {
                Ok(v) => {
                    apps.push(entities::App {
                        adam_id,
                        app_name: text(&v["appName"]).unwrap_or_default(),
                        developer_name: text(&v["artistName"]),
                        body: Some(v.to_string()),
                    });
                }
                // An app gone from the App Store keeps what we knew of it.
                Err(ProviderError::Permanent { status: 404, .. }) => {}
                Err(e) => return Err(job_error(e)),
            }
        }
        let mut conn = db.pool.acquire().await?;
        entities::upsert(&mut conn, org_key, &apps, listed_at).await?;
        drop(conn);
        progress.entities += apps.len() as u64;
        // Changes made outside Searchdeck, into the activity log; a failed read is
        // retried by the next sync from where this one stopped.
        ctx.check_cancelled()?;
        if let Err(e) =
            change_history::import(db, client.as_ref(), &group, currency.as_deref()).await
        {
            // The connection deleted meanwhile takes its groups' rows with it (the read's
            // writes then miss their foreign keys): the error goes to `run`, which ends
            // the sync quietly, rather than being logged as a failed read.
            if store::accounts::by_id(&db.pool, &account.id)
                .await?
                .is_none()
            {
                return Err(e.into());
            }
            tracing::warn!(
                org_id = org.org_id,
                error = %format!("{e:#}"),
                "change history not read"
            );
        }
        synced::set_entities_synced(&db.pool, org_key, listed_at).await?;
        progress.orgs_done += 1;
    }
    ctx.progress(
        "Queueing the metrics sync",
        total_steps - 1,
        total_steps,
        Some(&progress),
    )
    .await;
    enqueue_reports(ctx, &account).await?;
    tracing::info!(account_id = %account.id, orgs = progress.orgs_done, entities = progress.entities, "entities synced");
    Ok(Done::with_progress("Entities synced", progress))
}

/// Enqueues `sync-reports` for the connection through the outbox; when this sync reports to
/// a member's task, the metrics sync gets its own task for the same member.
async fn enqueue_reports(
    ctx: &JobContext<SyncAccount>,
    account: &AccountRow,
) -> Result<(), JobError> {
    let db = &ctx.runtime.db;
    let owner = match &ctx.task_id {
        Some(task_id) => synced::task_owner(&db.pool, task_id).await?,
        None => None,
    };
    let job = SyncReports {
        account_id: account.id.clone(),
    };
    let mut tx = db.pool.begin().await?;
    let task_id = match &owner {
        Some((workspace_id, user_id)) => Some(
            store::tasks::create(
                &mut *tx,
                NewTask {
                    workspace_id,
                    user_id: user_id.as_deref(),
                    kind: SyncReports::KIND,
                    message: "Syncing metrics",
                    total_steps: 1,
                    account_id: Some(&account.id),
                    org_id: None,
                },
            )
            .await?,
        ),
        None => None,
    };
    outbox::push(
        &mut *tx,
        &job,
        OutboxOptions {
            task_id,
            ..Default::default()
        },
    )
    .await?;
    tx.commit().await?;
    if let Err(e) = outbox::relay_once(db, &ctx.runtime.queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
    Ok(())
}
