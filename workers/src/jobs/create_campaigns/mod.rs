//! `create-campaigns` and `copy-campaigns` (issue 23; contract: docs/api/creation.md): a
//! campaign structure made at Apple Ads exactly once by one [`executor`]. Creation runs the
//! route's plan; a copy first reads the originals from Apple ([`copy`]) and builds the same
//! kind of plan. The task's details are spec §3's Creation progress throughout.

mod copy;
pub mod executor;

use searchdeck_common::{
    jobs::{CopyCampaigns, CreateCampaigns, CreationProgress, CreationScope},
    queue::JobError,
    store,
};

use crate::{Done, Handler, JobContext};

/// The final message of a creation that finished.
pub const CREATED: &str = "Campaigns created";

impl Handler for CreateCampaigns {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<CreationProgress>, JobError> {
        let Some(client) = client(ctx, &self.scope).await? else {
            return Ok(Done::message("Connection removed"));
        };
        let progress = executor::execute(ctx, client.as_ref(), &self.scope, &self.plan).await?;
        tracing::info!(job.id = %ctx.job_id, campaigns = progress.campaigns_created,
            groups = progress.groups_created, keywords = progress.keywords_created,
            rejected = progress.rejected.len(), "campaigns created");
        Ok(Done::with_progress(CREATED, progress))
    }
}

impl Handler for CopyCampaigns {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<CreationProgress>, JobError> {
        let Some(client) = client(ctx, &self.scope).await? else {
            return Ok(Done::message("Connection removed"));
        };
        ctx.progress("Reading the campaigns...", 0, 1, None).await;
        let plan = copy::plan(client.as_ref(), self).await?;
        let progress = executor::execute(ctx, client.as_ref(), &self.scope, &plan).await?;
        tracing::info!(job.id = %ctx.job_id, copies = progress.campaigns_created, "campaigns copied");
        Ok(Done::with_progress("Campaigns copied", progress))
    }
}

/// The connection's provider, or None when the connection was removed meanwhile.
async fn client<J>(
    ctx: &JobContext<J>,
    scope: &CreationScope,
) -> Result<Option<std::sync::Arc<dyn searchdeck_provider::AppleAds>>, JobError> {
    let Some(account) = store::accounts::by_id(&ctx.runtime.db.pool, &scope.account_id).await?
    else {
        tracing::info!(account_id = %scope.account_id, "connection gone; nothing to create");
        return Ok(None);
    };
    Ok(Some(ctx.runtime.provider_for(&account)?))
}
