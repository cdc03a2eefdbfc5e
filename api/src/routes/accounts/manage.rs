//! The workspace's connections: list them, choose the active one (per member; choosing an
//! account clears the active org, docs/product.md#4-sign-in-account-and-session), read, rename,
//! pick the campaign groups in use, and remove a connection with its data.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::now_ms,
    store::{self, accounts::Active},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AccountItem, item, parse_name};
use crate::{
    access::{Account, EditRoles, InWorkspace, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    middleware::state_changing_gets,
    route,
    routes::plans::limits as plan_limits,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(get_all))
        .routes(route!(get_used))
        // GET routes that change state (the spec keeps their method).
        .merge(state_changing_gets(
            OpenApiRouter::new().routes(route!(use_account)),
        ))
        .routes(route!(unuse))
        .routes(route!(one))
        .routes(route!(update))
        .routes(route!(remove))
        .routes(route!(add_account_ids))
}

/// Every connection of the caller's workspace, oldest first.
#[utoipa::path(get, path = "/api/account/getAll", tag = "accounts",
    responses((status = 200, description = "Accounts", body = Envelope<Items<AccountItem>>)))]
pub async fn get_all(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let rows = store::accounts::all(&state.db.pool, &user.workspace_id).await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        items.push(item(&state, row).await?);
    }
    Ok(envelope::items(items))
}

/// The caller's active account and org.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Used {
    /// The active account; null when none is chosen.
    pub item: Option<AccountItem>,
    /// The active campaign group; null for all of the account's.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub org_id: Option<i64>,
}

/// The caller's active account (and org), if one is chosen.
#[utoipa::path(get, path = "/api/account/getUsed", tag = "accounts",
    responses((status = 200, description = "The active account", body = Envelope<Used>)))]
pub async fn get_used(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let active = store::accounts::active(&state.db.pool, &user.user_id, &user.workspace_id).await?;
    let mut used = Used {
        item: None,
        org_id: None,
    };
    if let Some(active) = active
        && let Some(row) =
            store::accounts::in_workspace(&state.db.pool, &user.workspace_id, &active.account_id)
                .await?
    {
        used.item = Some(item(&state, row).await?);
        used.org_id = active.org_id;
    }
    Ok(envelope::ok(used))
}

/// The query of `account/use/{id}`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct UseQuery {
    /// A campaign group of the account to make active too; without it the org is cleared.
    org_id: Option<i64>,
}

/// Makes the account the caller's active one; the active org is cleared unless `orgId`
/// names one of its campaign groups.
#[utoipa::path(get, path = "/api/account/use/{id}", tag = "accounts",
    params(("id" = String, Path, description = "Account id"), UseQuery),
    responses((status = 200, description = "The active account", body = Envelope<Used>),
              (status = 400, description = "Unknown campaign group", body = ErrorBody)))]
pub async fn use_account(
    State(state): State<AppState>,
    account: InWorkspace<Account>,
    ApiQuery(query): ApiQuery<UseQuery>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    if let Some(org_id) = query.org_id {
        let orgs = store::accounts::orgs(&state.db.pool, &row.id).await?;
        if !orgs.iter().any(|o| o.org_id == org_id) {
            return Err(ApiError::field(
                "orgId",
                "This campaign group is not in the account",
            ));
        }
    }
    let active = Active {
        account_id: row.id.clone(),
        org_id: query.org_id,
    };
    let user = &account.caller;
    store::accounts::set_active(
        &state.db.pool,
        &user.user_id,
        &user.workspace_id,
        &active,
        now_ms(),
    )
    .await?;
    Ok(envelope::ok(Used {
        item: Some(item(&state, row).await?),
        org_id: query.org_id,
    }))
}

/// Clears the caller's active account (and org).
#[utoipa::path(post, path = "/api/account/unuse", tag = "accounts",
    responses((status = 200, description = "No account is active", body = Envelope<Used>)))]
pub async fn unuse(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    store::accounts::clear_active(&state.db.pool, &user.user_id, &user.workspace_id).await?;
    Ok(envelope::ok(Used {
        item: None,
        org_id: None,
    }))
}

/// One account of the caller's workspace.
#[utoipa::path(get, path = "/api/account/one/{id}", operation_id = "one_account", tag = "accounts",
    params(("id" = String, Path, description = "Account id")),
    responses((status = 200, description = "The account", body = Envelope<Item<AccountItem>>)))]
pub async fn one(
    State(state): State<AppState>,
    account: InWorkspace<Account>,
) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(item(&state, account.item.0).await?))
}

/// The body of `account/update/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateBody {
    #[schema(required = true, nullable = false, min_length = 1, max_length = 30)]
    /// The new name (required, at most 30 characters).
    name: Option<String>,
}

/// Renames an account.
#[utoipa::path(post, path = "/api/account/update/{id}", operation_id = "update_account", tag = "accounts",
    params(("id" = String, Path, description = "Account id")), request_body = UpdateBody,
    responses((status = 200, description = "The renamed account", body = Envelope<Item<AccountItem>>),
              (status = 400, description = "Invalid name", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    account: InWorkspace<Account, EditRoles>,
    ApiJson(body): ApiJson<UpdateBody>,
) -> ApiResult<impl IntoResponse> {
    let name = parse_name(body.name.as_deref()).map_err(|m| ApiError::field("name", &m))?;
    let mut row = account.item.0;
    store::accounts::rename(&state.db.pool, &row.id, &name, now_ms()).await?;
    row.name = name;
    Ok(envelope::item(item(&state, row).await?))
}

/// Removes an account: its credentials, its campaign groups and every member's choice of it.
#[utoipa::path(delete, path = "/api/account/{id}", operation_id = "remove_account", tag = "accounts",
    params(("id" = String, Path, description = "Account id")),
    responses((status = 200, description = "Removed", body = Envelope<Object>)))]
pub async fn remove(
    State(state): State<AppState>,
    account: InWorkspace<Account, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    store::accounts::delete(&state.db.pool, &account.item.0.id).await?;
    tracing::info!(account_id = %account.item.0.id, "Apple Ads account removed");
    Ok(envelope::done())
}

/// The body of `account/addAccountIds/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountIdsBody {
    #[schema(required = true, nullable = false, min_items = 1)]
    /// Campaign group (ad account) ids the account uses from now on; the others are left out.
    account_ids: Option<Vec<i64>>,
}

/// Chooses the campaign groups the account uses (each must be one of its cached groups).
/// Adding a group the account did not use is refused with `LIMIT_HAS_BEEN_REACHED`
/// (`AVAILABLEAPPS`, `AVAILABLEDEVS`) once the workspace's apps or developers reach the
/// plan's limits; leaving groups out always passes.
#[utoipa::path(post, path = "/api/account/addAccountIds/{id}", tag = "accounts",
    params(("id" = String, Path, description = "Account id")), request_body = AccountIdsBody,
    responses((status = 200, description = "The account with its campaign groups", body = Envelope<Item<AccountItem>>),
              (status = 400, description = "No or unknown campaign groups", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLEAPPS or AVAILABLEDEVS)", body = ErrorBody)))]
pub async fn add_account_ids(
    State(state): State<AppState>,
    account: InWorkspace<Account, EditRoles>,
    ApiJson(body): ApiJson<AccountIdsBody>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let ids = body.account_ids.unwrap_or_default();
    if ids.is_empty() {
        return Err(ApiError::field(
            "accountIds",
            "Choose at least one campaign group",
        ));
    }
    let orgs = store::accounts::orgs(&state.db.pool, &row.id).await?;
    let errors: Vec<FieldError> = ids
        .iter()
        .enumerate()
        .filter(|(_, id)| !orgs.iter().any(|o| o.org_id == **id))
        .map(|(i, _)| {
            FieldError::new(
                format!("accountIds.{i}"),
                "This campaign group is not in the account",
            )
        })
        .collect();
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let adds = orgs.iter().any(|o| !o.selected && ids.contains(&o.org_id));
    let plan = if adds {
        Some(
            state
                .engines
                .plan(&state.db, &account.caller.workspace_id)
                .await?,
        )
    } else {
        None
    };
    let mut tx = state.db.begin_write().await?;
    if let Some(plan) = plan {
        // More campaign groups bring more apps: refused once the plan's are reached.
        plan_limits::lock(&mut tx, &account.caller.workspace_id).await?;
        plan_limits::check_apps(&mut tx, plan, &account.caller.workspace_id).await?;
    }
    for org in &orgs {
        store::accounts::select_org(&mut *tx, &row.id, org.org_id, ids.contains(&org.org_id))
            .await?;
    }
    tx.commit().await?;
    Ok(envelope::item(item(&state, row).await?))
}
