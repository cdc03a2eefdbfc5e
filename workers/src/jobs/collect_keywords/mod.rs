//! `collect-keywords`: the keyword suggester's collection (issue 22; docs/api/suggester.md
//! "Collection", docs/sync-and-jobs.md). The handler reads the campaign group's own synced
//! data, builds the real [`Sources`] (the App Store client and Apple Ads for the
//! connection) and runs [`collect`], moving the task through the phases of
//! docs/product.md#2-keyword-suggester. A finished collection keeps its keywords with the task (24
//! h) and records its duration for the timing hint, in the transaction that finishes the task; a
//! stopped or failed one keeps nothing.

pub mod collector;
#[cfg(test)]
mod collector_tests;
pub mod sources;

use std::sync::Arc;

use async_trait::async_trait;
use searchdeck_common::{
    ids,
    jobs::CollectKeywords,
    queue::{Job, JobError},
    store,
    suggester::{COMPLETED, CollectProgress, FAILED, Phase, STOPPED, TOTAL_STEPS},
};
use searchdeck_provider::ProviderError;

pub use collector::{Collected, Halt, Quiet, Reporter, Sources, collect};
pub use sources::{AdsSource, AppleAdsSource, OwnData, StoreSource};

use crate::{Done, Handler, JobContext};

impl Handler for CollectKeywords {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<CollectProgress>, JobError> {
        run(self, ctx).await
    }
}

/// Reports each phase on the job's task: message, step (of 7) and the candidate count.
struct TaskReporter<'a>(&'a JobContext<CollectKeywords>);

#[async_trait]
impl Reporter for TaskReporter<'_> {
    async fn phase(&self, phase: Phase, candidates: u64) {
        let details = CollectProgress {
            candidates,
            stopped: false,
        };
        self.0
            .progress(phase.message(), phase.step(), TOTAL_STEPS, Some(&details))
            .await;
    }
}

/// A failed collection as the job's outcome: a 429 waits without spending an attempt, a
/// transient failure retries (the collection starts again) while attempts remain; anything
/// else, or the last attempt, fails the task with 'Something went wrong'
/// (docs/product.md#8-suggester-failure; the cause is logged).
pub fn failure(e: ProviderError, attempt: u32) -> JobError {
    match e {
        ProviderError::RateLimited { retry_after } => JobError::RateLimited {
            retry_after,
            source: anyhow::anyhow!("provider rate limit"),
        },
        ProviderError::Retryable { .. } | ProviderError::Decode(_)
            if attempt < CollectKeywords::MAX_ATTEMPTS =>
        {
            JobError::retryable(e)
        }
        e => {
            tracing::error!(error = %e, attempt, "keyword collection failed");
            JobError::permanent(anyhow::anyhow!(FAILED))
        }
    }
}

async fn run(
    job: &CollectKeywords,
    ctx: &JobContext<CollectKeywords>,
) -> Result<Done<CollectProgress>, JobError> {
    let db = &ctx.runtime.db;
    let Some(account) = store::accounts::by_id(&db.pool, &job.account_id).await? else {
        tracing::error!(account.id = %job.account_id, "the collection's connection is gone");
        return Err(JobError::permanent(anyhow::anyhow!(FAILED)));
    };
    let org_key =
        store::catalog::org_key(&db.pool, &job.workspace_id, &job.account_id, job.org_id).await?;
    let own = OwnData::load(db, org_key, job.adam_id).await?;
    let sources = Sources {
        store: Arc::new(ctx.runtime.appstore.clone()),
        ads: Arc::new(AppleAdsSource {
            ads: ctx.runtime.provider_for(&account)?,
            org_id: job.org_id,
        }),
        own: Arc::new(own),
    };
    let collected = collect(
        job.adam_id,
        &job.search,
        &sources,
        &TaskReporter(ctx),
        &ctx.cancel,
    )
    .await;
    let task_id = ctx.task_id.clone().unwrap_or_default();
    match collected {
        Ok(done) => {
            let progress = CollectProgress {
                candidates: done.items.len() as u64,
                stopped: false,
            };
            let now = ids::now_ms();
            let items = serde_json::to_string(&done.items).map_err(JobError::permanent)?;
            let details = serde_json::to_value(&progress).map_err(JobError::permanent)?;
            // What Apple answered for popularity serves the optimisation tables' popularity
            // column and the impression estimates too (the store `refresh-popularity`
            // keeps); stored before the task reads as finished.
            let country = job.search.country.to_uppercase();
            let rows: Vec<store::popularity::Popularity> = done
                .items
                .iter()
                .map(|k| store::popularity::Popularity {
                    text: store::popularity::normalise(&k.name),
                    country: country.clone(),
                    popularity: k.popularity.map(i64::from),
                    fetched_at: now,
                })
                .collect();
            for chunk in rows.chunks(store::popularity::PUT_MAX) {
                store::popularity::put_many(&db.pool, chunk).await?;
            }
            // The result exists exactly when the task finished well: a stop that finished
            // the task first leaves nothing behind.
            let mut tx = db.pool.begin().await?;
            store::tasks::set_details(&mut *tx, &task_id, &details).await?;
            if store::tasks::finish(&mut *tx, &task_id, COMPLETED, None).await? {
                store::suggester::save_result(&mut *tx, &task_id, &job.workspace_id, &items, now)
                    .await?;
                store::suggester::record_run(
                    &mut *tx,
                    job.search.suggestion_type.as_str(),
                    &job.search.country,
                    now - job.queued_at,
                    done.calls,
                    now,
                )
                .await?;
                tx.commit().await?;
            } else {
                tx.rollback().await?;
            }
            tracing::info!(job.id = %ctx.job_id, items = done.items.len(), calls = done.calls, "keywords collected");
            Ok(Done::with_progress(COMPLETED, progress))
        }
        Err(Halt::Stopped) => {
            let details = serde_json::json!({"candidates": 0, "stopped": true});
            store::tasks::stop(&db.pool, &job.workspace_id, &task_id, STOPPED, &details).await?;
            Err(JobError::Cancelled)
        }
        Err(Halt::Provider(e)) => Err(failure(e, ctx.attempt)),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn provider_failures_retry_then_fail_with_the_spec_message() {
        let transient = || ProviderError::Retryable {
            status: Some(503),
            message: "down".into(),
        };
        assert!(matches!(failure(transient(), 1), JobError::Retryable(_)));
        let last = failure(transient(), CollectKeywords::MAX_ATTEMPTS);
        assert!(matches!(&last, JobError::Permanent(e) if e.to_string() == FAILED));
        let refused = ProviderError::Permanent {
            status: 400,
            code: "X".into(),
            message: "no".into(),
            details: vec![],
            field: None,
        };
        assert!(matches!(failure(refused, 1), JobError::Permanent(e) if e.to_string() == FAILED));
        let limited = ProviderError::RateLimited {
            retry_after: Duration::from_secs(2),
        };
        assert!(matches!(failure(limited, 1), JobError::RateLimited { .. }));
    }
}
