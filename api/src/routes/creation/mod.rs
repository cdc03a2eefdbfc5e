//! Campaign creation and copies (issue 23; contract: docs/api/creation.md "Creation" and
//! "Copies"): `PUT asa/campaigns/asa/all` (the suggester's campaigns, job
//! `create-campaigns`), `POST asa/campaigns/exists` (step 4's name check), `POST
//! asa/groups/createByList/{id}` (ad groups from a keyword list in an existing campaign, the
//! same job), `POST asa/groups/checkCampaignGroupsCPAGoals` and `PUT asa/campaigns/copy`
//! (job `copy-campaigns`).
//!
//! The writes check everything first — the editor guard (readers 403), the connection and
//! campaign group of the caller's workspace (404), every field ([`input`] and [`plan`]: 400
//! with field errors, money as the quick edits check it, Apple's minimum budget and bid),
//! the app of the campaign group, the plan's limits (`LIMIT_HAS_BEEN_REACHED` with
//! `meta.type`) — then record the task with its job in one transaction and answer its id.
//! That transaction locks the workspace's row and checks the campaign limit again, counting
//! the campaigns of creations still running ([`crate::routes::plans::limits`]), so two concurrent
//! creations cannot both pass it.
//!
//! The routes live by action group: creating campaigns or ad groups (`create`), the checks
//! the creation screens make before sending (`checks`: names in use, CPA goals) and copies
//! (`copy`); this module holds what they share: the campaign group a request acts in and
//! the transaction that starts the job.

mod checks;
mod copy;
mod create;
pub mod input;
pub mod plan;

use searchdeck_common::{
    Db,
    jobs::{CreationProgress, CreationScope},
    queue::outbox::{self, OutboxOptions},
    store::{self, synced::SyncOrg},
    tasks::NewTask,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

pub use copy::copy_name;

use crate::{
    domain::REQUIRED,
    error::{ApiError, ApiResult},
    route,
    routes::plans::limits as plan_limits,
    session::CurrentUser,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(create::create_all))
        .routes(route!(checks::exists))
        .routes(route!(create::create_by_list))
        .routes(route!(checks::check_cpa_goals))
        .routes(route!(copy::copy))
}

/// The query of the routes acting in one campaign group.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct GroupQuery {
    /// Account id (a connection of the caller's workspace).
    #[expect(
        dead_code,
        reason = "read by the InWorkspace guard; here for the OpenAPI parameters"
    )]
    account_id: Option<String>,
    /// Campaign group (Apple's org id) of the account.
    #[param(value_type = String)]
    org_id: Option<String>,
}

/// `{"id": "<task id>"}`: the started job's task, to poll at `GET /api/tasks/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskStarted {
    pub id: String,
}

/// The synced campaign group `orgId` of the connection (400 when absent or not synced).
async fn campaign_group(
    state: &AppState,
    account_id: &str,
    org_id: Option<&str>,
) -> ApiResult<(SyncOrg, String)> {
    let org_id = org_id
        .and_then(|o| o.trim().parse::<i64>().ok())
        .ok_or_else(|| ApiError::field("orgId", REQUIRED))?;
    let org = store::synced::org_of(&state.db.pool, account_id, org_id)
        .await?
        .ok_or_else(|| ApiError::field("orgId", "Not a synced campaign group of this account"))?;
    let currency = org
        .currency
        .clone()
        .ok_or_else(|| ApiError::field("orgId", "The campaign group is not synced yet"))?;
    Ok((org, currency))
}

fn scope(user: &CurrentUser, org: &SyncOrg, currency: &str) -> CreationScope {
    CreationScope {
        workspace_id: user.workspace_id.clone(),
        user_id: Some(user.user_id.clone()),
        account_id: org.account_id.clone(),
        org_key: org.org_key,
        org_id: org.org_id,
        currency: currency.to_string(),
    }
}

/// What a creation or copy will make (docs/product.md#8-limit-reached: campaigns of the campaign
/// group, ad groups of one creation).
struct Making {
    campaigns: u64,
    groups: u64,
}

/// Records the task with its job in one transaction, within the plan's limits: the
/// workspace's row locked first (`plan_limits::lock`), the campaign group's campaigns
/// counted again there, with those creations still running will make, so two concurrent
/// creations cannot both pass (docs/api/plans.md "Limits per plan"). The task starts with
/// the Creation progress's totals, which is what the next creation's count reads.
#[expect(
    clippy::too_many_arguments,
    reason = "one call per route; the arguments are what differs between them"
)]
async fn start<J: searchdeck_common::queue::Job>(
    state: &AppState,
    user: &CurrentUser,
    org: &SyncOrg,
    kind: &'static str,
    message: &str,
    total: i64,
    making: Making,
    job: &J,
) -> ApiResult<TaskStarted> {
    let plan = state.engines.plan(&state.db, &user.workspace_id).await?;
    let progress = serde_json::to_value(CreationProgress {
        campaigns_total: making.campaigns,
        groups_total: making.groups,
        ..Default::default()
    })
    .map_err(anyhow::Error::from)?;
    let id = Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        plan_limits::lock(&mut tx, &user.workspace_id).await?;
        let existing = plan_limits::group_campaigns(&mut tx, &user.workspace_id, org).await?;
        plan_limits::check_creation(plan, existing, making.campaigns, making.groups)?;
        let id = store::tasks::create(
            &mut *tx,
            NewTask {
                workspace_id: &user.workspace_id,
                user_id: Some(&user.user_id),
                kind,
                message,
                total_steps: total.max(1),
                account_id: Some(&org.account_id),
                org_id: Some(org.org_id),
            },
        )
        .await?;
        store::tasks::set_details(&mut *tx, &id, &progress).await?;
        outbox::push(
            &mut *tx,
            job,
            OutboxOptions {
                task_id: Some(id.clone()),
                ..Default::default()
            },
        )
        .await?;
        tx.commit().await?;
        Ok::<_, ApiError>(id)
    })
    .await?;
    if let Err(e) = outbox::relay_once(&state.db, &state.queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
    Ok(TaskStarted { id })
}
