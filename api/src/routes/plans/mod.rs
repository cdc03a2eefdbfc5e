//! Plans and trials (docs/api/plans.md; docs/product.md#4-plans,
//! docs/product.md#6-roles-and-permissions, docs/product.md#8-trial-and-purchase-messages,
//! docs/product.md#9-plans-and-trials): the Pro trial started without a card
//! (`pay/giveMeTrial`) and the workspace's purchases (`purchase/all`). Both are the subscription's,
//! so owners and admins only (docs/product.md#6-roles-and-route-limits: only owner or admin can
//! start a trial or upgrade; subscription settings are owner and admin). And the one call every
//! member's web app asks for the plan, its limits, and the banner and upsell modal that apply now
//! (`plan/current`), with what the workspace uses of each limit. The plan itself is derived in
//! `searchdeck_common::plan`; the banner and modal rules live in `plan::prompts`. Beside the
//! sandbox only, `plan/testClock` moves the clock `plan/current` reads for the caller's workspace
//! (`searchdeck_common::plan::clock`).

pub mod admin;
pub mod limits;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use rust_decimal::Decimal;
use searchdeck_common::{
    Db, Engines,
    ids::{new_id, now_ms},
    plan::{
        self, Plan,
        derive::{self, FreeTrialStatus, PRO_TRIAL_MS, PreviousStatus, Purchase, TrialKind},
        prompts::{self, Banner, Modal, Situation},
    },
    store,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Manager, Member},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    middleware::state_changing_gets,
    route,
    session::Role,
    state::AppState,
};
use limits::{self as plan_limits, Usage};
use searchdeck_common::plan::clock::MAX_OFFSET_MS;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(purchase_all))
        .routes(route!(plan_current))
        .routes(route!(plan_test_clock))
        // A GET that changes state (the spec keeps its method).
        .merge(state_changing_gets(
            OpenApiRouter::new().routes(route!(give_me_trial)),
        ))
}

/// The success message of a started trial (docs/product.md#8-trial-and-purchase-messages; the web
/// app shows it for 6 s).
pub const TRIAL_STARTED: &str = "Congratulations! Your 14-day Pro Plan trial has begun";
/// A second Pro trial of the workspace.
pub const TRIAL_USED: &str = "The Pro trial has already been used";
/// A trial asked on a plan that already has Pro.
pub const ALREADY_PRO: &str = "Your plan already includes Pro";

/// A purchase as the web app reads it (spec §3 Purchase).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseItem {
    pub id: String,
    /// The plan's name (`pro`, `growth`, `agency`, `free`).
    pub name: String,
    pub free: bool,
    pub trial: bool,
    pub full: bool,
    pub organization: bool,
    /// Whether the workspace has had the Pro trial (the same on every row).
    pub used_trial: bool,
    /// Whether the workspace has had the pre-trial.
    pub used_pre_trial: bool,
    /// Whether the workspace has had the Growth trial.
    pub used_growth_trial: bool,
    /// When the purchase started (ms).
    pub started_at: i64,
    /// The plan's end (ms); null: no end.
    pub off_account_time: Option<i64>,
    /// Whether billing found the last payment failed.
    pub payment_failed: bool,
    /// Whether the keyword suggester is included.
    pub suggester: bool,
}

/// The items of `purchases` (newest first), with the workspace's used-trial flags.
pub fn items(purchases: &[Purchase]) -> Vec<PurchaseItem> {
    let used = |kind| purchases.iter().any(|p| p.trial() == Some(kind));
    let (pro, pre, growth) = (
        used(TrialKind::Pro),
        used(TrialKind::Pre),
        used(TrialKind::Growth),
    );
    purchases
        .iter()
        .map(|p| PurchaseItem {
            id: p.id.clone(),
            name: p.name.clone(),
            free: p.free,
            trial: p.trial,
            full: p.full,
            organization: p.organization,
            used_trial: pro,
            used_pre_trial: pre,
            used_growth_trial: growth,
            started_at: p.started_at,
            off_account_time: p.off_account_time,
            payment_failed: p.payment_failed,
            suggester: p.suggester,
        })
        .collect()
}

/// The workspace's purchases, newest first.
#[utoipa::path(get, path = "/api/purchase/all", tag = "billing",
    responses((status = 200, description = "The workspace's purchases, newest first", body = Envelope<Items<PurchaseItem>>)))]
pub async fn purchase_all(
    State(state): State<AppState>,
    user: Manager,
) -> ApiResult<impl IntoResponse> {
    let purchases = store::purchases::all(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(items(&purchases)))
}

/// The answer of a started trial.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrialStarted {
    /// Always `ok`.
    pub status: String,
    /// The plan now: `pro_trial`.
    pub plan: Plan,
    /// The trial's purchase.
    pub purchase: PurchaseItem,
}

/// Starts the workspace's 14-day Pro trial without a card (once per workspace). Refused
/// with 409 when the trial was had already or the plan already includes Pro.
#[utoipa::path(get, path = "/api/pay/giveMeTrial", tag = "billing",
    responses((status = 200, description = "The trial has begun", body = Envelope<TrialStarted>),
              (status = 409, description = "The Pro trial was had already, or the plan already includes Pro", body = ErrorBody)))]
pub async fn give_me_trial(
    State(state): State<AppState>,
    user: Manager,
) -> ApiResult<impl IntoResponse> {
    let now = now_ms();
    let (plan, purchase) = start_trial(&state.db, &state.engines, &user.workspace_id, now).await?;
    let purchases = store::purchases::all(&state.db.pool, &user.workspace_id).await?;
    let purchase = items(&purchases)
        .into_iter()
        .find(|p| p.id == purchase.id)
        .ok_or_else(|| ApiError::not_found("Purchase"))?;
    tracing::info!(workspace.id = %user.workspace_id, user.id = %user.user_id, "pro trial started");
    Ok(envelope::ok_with(
        TRIAL_STARTED,
        TrialStarted {
            status: "ok".into(),
            plan,
            purchase,
        },
    ))
}

/// Stores the Pro trial of `workspace_id` starting at `now`; the plan it gives.
async fn start_trial(
    db: &Db,
    engines: &Engines,
    workspace_id: &str,
    now: i64,
) -> ApiResult<(Plan, Purchase)> {
    let conflict = |m: &str| ApiError::status(StatusCode::CONFLICT, m);
    let standing = engines.standing(db, workspace_id, now).await?;
    if !matches!(standing.plan, Plan::ProFree | Plan::ProLimited) {
        return Err(conflict(ALREADY_PRO));
    }
    let purchase = Purchase {
        id: new_id(),
        name: "pro".into(),
        free: false,
        trial: true,
        full: false,
        organization: false,
        trial_kind: Some(TrialKind::Pro),
        suggester: true,
        payment_failed: false,
        started_at: now,
        off_account_time: Some(now + PRO_TRIAL_MS),
    };
    match store::purchases::insert(&db.pool, workspace_id, &purchase, now).await {
        Ok(()) => {}
        Err(e) if Db::is_unique_violation(&e) => return Err(conflict(TRIAL_USED)),
        Err(e) => return Err(e.into()),
    }
    let plan = engines.standing(db, workspace_id, now).await?.plan;
    Ok((plan, purchase))
}

/// The query of `plan/current`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CurrentQuery {
    /// `integrations` for the integrations page's modals (the MMP variants); omitted
    /// elsewhere.
    #[param(pattern = "^(integrations)?$")]
    pub context: Option<String>,
}

/// The workspace's plan now, with what the web app shows for it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanAnswer {
    pub plan: Plan,
    pub free_trial_status: FreeTrialStatus,
    /// The status of the purchase that ended when the workspace fell back to a free plan.
    pub previous_status: Option<PreviousStatus>,
    /// Last month's ad spend in US dollars (decimal string, cents).
    #[schema(value_type = String, example = "1234.56")]
    pub last_month_spend: Decimal,
    /// The free plans' threshold in US dollars (`10000`).
    #[schema(value_type = String, example = "10000")]
    pub spend_threshold: Decimal,
    /// The end of the purchase in force (ms); null without one or without an end.
    pub off_account_time: Option<i64>,
    /// Whole days to `offAccountTime`, rounded up.
    pub days_left: Option<i64>,
    /// Whether the caller may start a trial or upgrade (owner, admin).
    pub can_upgrade: bool,
    pub limits: plan::Limits,
    /// What the workspace uses of each limit, counted as the limit checks count.
    pub usage: Usage,
    /// The top banner that applies now, if any.
    pub banner: Option<Banner>,
    /// The upsell modal that applies now, if any.
    pub modal: Option<Modal>,
}

/// The workspace's plan (from its purchases and last month's spend), its limits, and the
/// banner and upsell modal that apply now for the caller's role.
#[utoipa::path(get, path = "/api/plan/current", tag = "billing", params(CurrentQuery),
    responses((status = 200, description = "The plan and what to show for it", body = Envelope<PlanAnswer>),
              (status = 400, description = "Unknown context", body = ErrorBody),
              (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn plan_current(
    State(state): State<AppState>,
    user: Member,
    ApiQuery(query): ApiQuery<CurrentQuery>,
) -> ApiResult<impl IntoResponse> {
    let integrations = match query.context.as_deref() {
        None | Some("") => false,
        Some("integrations") => true,
        Some(_) => return Err(ApiError::field("context", "Must be integrations")),
    };
    // The plan's clock: now, unless a test moved it for this workspace (sandbox only).
    let now = state.plan_clock.now(&user.workspace_id);
    let purchases = store::purchases::all(&state.db.pool, &user.workspace_id).await?;
    let spend = state
        .engines
        .last_month_usd(&state.db, &user.workspace_id, now)
        .await?;
    let standing = derive::derive(&purchases, spend, now);
    // Syncs happen in real time: their lateness is read against the real clock.
    let syncs = store::accounts::sync_states(&state.db.pool, &user.workspace_id).await?;
    let usage = {
        let mut conn = state.db.pool.acquire().await?;
        plan_limits::usage(&mut conn, &user.workspace_id).await?
    };
    let situation = Situation {
        standing: &standing,
        can_manage: matches!(user.role, Role::Owner | Role::Admin),
        data_issues: prompts::data_issues(&syncs, now_ms()),
        // Credit lines come with billing (docs/api/plans.md "Banners").
        credit_line_missing: false,
        integrations,
        now,
    };
    let off_account_time = standing.current.as_ref().and_then(|p| p.off_account_time);
    Ok(envelope::ok(PlanAnswer {
        plan: standing.plan,
        free_trial_status: standing.free_trial,
        previous_status: standing.previous_status,
        last_month_spend: spend,
        spend_threshold: derive::free_spend_limit_usd(),
        off_account_time,
        days_left: off_account_time.map(|end| prompts::days_left(end - now)),
        can_upgrade: situation.can_manage,
        limits: standing.plan.limits(),
        usage,
        banner: prompts::banner(&situation),
        modal: prompts::modal(&situation),
    }))
}

/// The body of `plan/testClock`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestClockRequest {
    /// How far to move the plan's clock from now (ms, either way, at most 400 days); 0 puts
    /// it back.
    #[schema(minimum = -34560000000.0, maximum = 34560000000.0)]
    pub offset_ms: i64,
}

/// The plan's clock of the workspace after the move.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestClock {
    /// The offset in force (ms).
    pub offset_ms: i64,
    /// The clock `plan/current` reads now (ms).
    pub now: i64,
}

/// Testing beside the sandbox only: moves the clock `plan/current` reads (plan, trial,
/// banner, modal) for the caller's workspace by `offsetMs` from now, so a test sees a
/// trial's end without waiting. 404 when the provider is Apple's API (production).
#[utoipa::path(put, path = "/api/plan/testClock", tag = "billing",
    request_body = TestClockRequest,
    responses((status = 200, description = "The plan's clock was moved", body = Envelope<TestClock>),
              (status = 400, description = "Invalid offset", body = ErrorBody),
              (status = 404, description = "Not beside the sandbox", body = ErrorBody)))]
pub async fn plan_test_clock(
    State(state): State<AppState>,
    user: Manager,
    ApiJson(body): ApiJson<TestClockRequest>,
) -> ApiResult<impl IntoResponse> {
    if !state.plan_clock.enabled() {
        return Err(ApiError::not_found("Test clock"));
    }
    if body.offset_ms.abs() > MAX_OFFSET_MS {
        return Err(ApiError::field(
            "offsetMs",
            "Must be at most 400 days either way",
        ));
    }
    state.plan_clock.set(&user.workspace_id, body.offset_ms);
    tracing::info!(workspace.id = %user.workspace_id, offset_ms = body.offset_ms, "plan test clock moved");
    Ok(envelope::ok(TestClock {
        offset_ms: state.plan_clock.offset(&user.workspace_id),
        now: state.plan_clock.now(&user.workspace_id),
    }))
}
