//! `create-campaigns` and `copy-campaigns` (issue 23; contract: docs/api/creation.md): a
//! campaign structure made at Apple Ads exactly once by one [`executor`]. Creation runs the
//! route's plan; a copy first reads the originals from Apple ([`copy`]) and builds the same
//! kind of plan. The task's details are the creation progress
//! (docs/product.md#3-creation-progress) throughout.

mod copy;
pub mod executor;

use searchdeck_common::{
    ids,
    jobs::{CopyCampaigns, CreateCampaigns, CreationProgress, CreationScope},
    queue::JobError,
    store::{
        self,
        activity::notifications::{self, NewNotification},
    },
};

use crate::{Done, Handler, JobContext, JobRun};

/// The final message of a creation that finished.
pub const CREATED: &str = "Campaigns created";

impl Handler for CreateCampaigns {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<CreationProgress>, JobError> {
        let Some(client) = client(ctx, &self.scope).await? else {
            return Ok(Done::message("Connection removed"));
        };
        let n = notification_of(ctx, &self.scope, "created").await?;
        let progress = executor::execute(ctx, client.as_ref(), &self.scope, &self.plan, &n).await?;
        let made = progress.campaigns_created as i64;
        crate::apply::retitle(ctx, &n, |_| notifications::titles::created(made)).await?;
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
        let n = notification_of(ctx, &self.scope, "copied").await?;
        let progress = executor::execute(ctx, client.as_ref(), &self.scope, &plan, &n).await?;
        let made = progress.campaigns_created as i64;
        crate::apply::retitle(ctx, &n, |_| {
            notifications::titles::created(made).replace("created", "copied")
        })
        .await?;
        tracing::info!(job.id = %ctx.job_id, copies = progress.campaigns_created, "campaigns copied");
        Ok(Done::with_progress("Campaigns copied", progress))
    }
}

/// The notification of creation job `ctx` (key `creation:<job id>`, tag Quick Start, by the
/// member who asked), written with its first change record; `verb` is "created" or "copied".
async fn notification_of(
    ctx: &JobRun,
    scope: &CreationScope,
    verb: &str,
) -> Result<NewNotification, JobError> {
    let member = match &scope.user_id {
        Some(user) => notifications::member_name(&ctx.runtime.db.pool, user).await?,
        None => None,
    };
    let (name, email) = member.map_or((String::new(), None), |(n, e)| (n, Some(e)));
    Ok(NewNotification {
        workspace_id: scope.workspace_id.clone(),
        key: format!("creation:{}", ctx.job_id),
        tag: notifications::TAG_QUICK_START,
        kind: notifications::TYPE_CHANGE,
        title: format!("Campaigns {verb}"),
        action: "CREATE".into(),
        target: "CAMPAIGN".into(),
        source: notifications::SOURCE_USER,
        source_name: name,
        user_id: scope.user_id.clone(),
        email,
        rule_id: None,
        account_id: Some(scope.account_id.clone()),
        org_id: Some(scope.org_id),
        undo_of: None,
        created_at: ids::now_ms() / 1000,
    })
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
