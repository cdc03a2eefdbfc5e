//! `bulk-edit`: the job a member's bulk edit runs as — one field of many campaigns, ad
//! groups, keywords or negative keywords of one campaign group set, deleted, or negative
//! keywords added at Apple Ads — sent through [`crate::apply`], which says how items are
//! chunked, skipped, sent and recorded. The task's progress moves after every chunk of the
//! bulk endpoints and after every item sent one by one, so the popover counts what is done
//! while the job runs; the notification is titled by the changes it holds once done.

use searchdeck_common::{
    ids,
    jobs::{BulkEdit, BulkEditProgress, CREATED},
    queue::JobError,
    store::{
        self,
        activity::notifications::{self, NewNotification},
    },
};

use crate::{
    Done, Handler, JobContext, JobRun,
    apply::{Edit, KEYWORD_CHUNK, ONE_BY_ONE_CHUNK, level, recorded, retitle},
};

impl Handler for BulkEdit {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<BulkEditProgress>, JobError> {
        let db = &ctx.runtime.db;
        let Some(account) = store::accounts::by_id(&db.pool, &self.account_id).await? else {
            tracing::info!(account_id = %self.account_id, "connection gone; nothing to edit");
            return Ok(Done::message("Connection removed"));
        };
        let client = ctx.runtime.provider_for(&account)?;
        let recorded = recorded(ctx, &ctx.job_id, self).await?;
        let mut progress = BulkEditProgress {
            level: self.level.clone(),
            field: self.field.clone(),
            operation: self.operation.clone(),
            total: self.items.len() as u64,
            ..Default::default()
        };
        let total = self.items.len() as i64;
        let notification = notification_of(ctx, &ctx.job_id, self).await?;
        let edit = Edit::new(self, &ctx.job_id, &notification);
        let chunk_size = if edit.in_bulk() {
            KEYWORD_CHUNK
        } else {
            ONE_BY_ONE_CHUNK
        };
        let label = self.operation.clone();
        ctx.progress(&label, 0, total, Some(&progress)).await;
        for chunk in self.items.chunks(chunk_size) {
            ctx.check_cancelled()?;
            if self.field == CREATED {
                let to_add = edit
                    .plan_creates(ctx, chunk, &recorded, &mut progress)
                    .await?;
                if !to_add.is_empty() {
                    edit.send_creates(ctx, client.as_ref(), to_add, &mut progress)
                        .await?;
                }
            } else {
                let to_send = edit.plan(ctx, chunk, &recorded, &mut progress).await?;
                if edit.in_bulk() {
                    if !to_send.is_empty() {
                        edit.send_bulk(ctx, client.as_ref(), to_send, &mut progress)
                            .await?;
                    }
                } else {
                    // One call an item: the task counts each as it is done (the items that
                    // need no call first), not only at the chunk's end.
                    ctx.progress(&label, progress.done as i64, total, Some(&progress))
                        .await;
                    for item in to_send {
                        let r = edit.send_one(ctx, client.as_ref(), item).await?;
                        progress.push(r);
                        ctx.progress(&label, progress.done as i64, total, Some(&progress))
                            .await;
                    }
                    continue;
                }
            }
            ctx.progress(&label, progress.done as i64, total, Some(&progress))
                .await;
        }
        let message = if progress.refused > 0 {
            format!(
                "Finished with errors: {} applied, {} refused, {} unchanged",
                progress.applied, progress.refused, progress.skipped
            )
        } else {
            format!(
                "Done: {} applied, {} unchanged",
                progress.applied, progress.skipped
            )
        };
        retitle(ctx, &notification, |n| {
            notifications::titles::manual(&self.level, &self.field, n)
        })
        .await?;
        tracing::info!(job.id = %ctx.job_id, level = %self.level, field = %self.field,
            applied = progress.applied, refused = progress.refused, skipped = progress.skipped, "bulk edit done");
        Ok(Done::with_progress(message, progress))
    }
}

/// The notification of bulk-edit job `job_id` (key `job:<job id>`, tag manual change, by
/// the member who asked), titled by the items it was asked to change; written with its first
/// change record.
async fn notification_of(
    ctx: &JobRun,
    job_id: &str,
    edit: &BulkEdit,
) -> Result<NewNotification, JobError> {
    let name = match &edit.user_id {
        Some(user) => notifications::member_name(&ctx.runtime.db.pool, user)
            .await?
            .map(|(name, _)| name),
        None => None,
    };
    Ok(NewNotification {
        workspace_id: edit.workspace_id.clone(),
        key: format!("job:{job_id}"),
        tag: notifications::TAG_MANUAL,
        kind: notifications::TYPE_CHANGE,
        title: notifications::titles::manual(&edit.level, &edit.field, edit.items.len() as i64),
        action: notifications::action_of(&edit.field).into(),
        target: level(&edit.level).into(),
        source: notifications::SOURCE_USER,
        source_name: name.or_else(|| edit.user_email.clone()).unwrap_or_default(),
        user_id: edit.user_id.clone(),
        email: edit.user_email.clone(),
        rule_id: None,
        account_id: Some(edit.account_id.clone()),
        org_id: Some(edit.org_id),
        undo_of: None,
        created_at: ids::now_ms() / 1000,
    })
}
