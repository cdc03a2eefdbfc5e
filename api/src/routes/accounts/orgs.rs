//! Campaign groups (spec "orgs"; v1 ad accounts) of a connection: fetched from the provider
//! (`/acls`, then each `/ad-accounts/{id}` for currency and time zone), cached in
//! `account_orgs` on connect and on demand, served by `asa/getAcls` (the cache) and
//! `asa/getAccountData` (refreshed first).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    ids::now_ms,
    store::{self, accounts::OrgRow},
};
use searchdeck_provider::{AppleAds, ProviderError};
use utoipa_axum::router::OpenApiRouter;

use super::{AccountItem, item};
use crate::{
    access::{InWorkspace, QueriedAccount},
    envelope::{self, Envelope, Item, Items},
    error::{ApiResult, ErrorBody},
    middleware::state_changing_gets,
    provider::provider_error,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(get_acls))
        // A GET that changes state (the spec keeps its method): it rewrites the cached
        // campaign groups.
        .merge(state_changing_gets(
            OpenApiRouter::new().routes(route!(get_account_data)),
        ))
}

/// The campaign groups the client's credentials reach, with currency and time zone. New
/// ones are selected.
pub async fn fetch(client: &dyn AppleAds) -> Result<Vec<OrgRow>, ProviderError> {
    let acls = client.acls().await?;
    let mut orgs = Vec::with_capacity(acls.len());
    for acl in acls {
        let id = acl.ad_account_id;
        let details = client.ad_account(id).await?;
        let permission = acl
            .roles
            .into_iter()
            .next()
            .unwrap_or_else(|| "API Account Read Only".to_string());
        orgs.push(OrgRow {
            org_id: id,
            display_name: details.name.or(acl.name).unwrap_or_default(),
            currency: details.currency,
            time_zone: details.timezone,
            permission,
            selected: true,
        });
    }
    Ok(orgs)
}

/// Replaces the cached campaign groups of `account_id` by `orgs` (selections kept).
pub async fn save(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account_id: &str,
    orgs: &[OrgRow],
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    for org in orgs {
        store::accounts::upsert_org(&mut **tx, account_id, org, now).await?;
    }
    store::accounts::delete_stale_orgs(&mut **tx, account_id, now).await
}

/// Every cached campaign group of the account (`accountId` query), selected or not.
#[utoipa::path(get, path = "/api/asa/getAcls", tag = "accounts",
    params(("accountId" = String, Query, description = "Account id")),
    responses((status = 200, description = "Campaign groups", body = Envelope<Items<OrgRow>>)))]
pub async fn get_acls(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
) -> ApiResult<impl IntoResponse> {
    let orgs = store::accounts::orgs(&state.db.pool, &account.item.0.id).await?;
    Ok(envelope::items(orgs))
}

/// Refreshes the account's campaign groups from Apple Ads and answers the account with them.
#[utoipa::path(get, path = "/api/asa/getAccountData", tag = "accounts",
    params(("accountId" = String, Query, description = "Account id")),
    responses((status = 200, description = "The account with fresh campaign groups", body = Envelope<Item<AccountItem>>),
              (status = 502, description = "Apple Ads could not be reached", body = ErrorBody)))]
pub async fn get_account_data(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
) -> ApiResult<impl IntoResponse> {
    let row = account.item.0;
    let client = state.provider.client_of(&row)?;
    let orgs = fetch(client.as_ref()).await.map_err(provider_error)?;
    let mut tx = state.db.begin_write().await?;
    save(&mut tx, &row.id, &orgs).await?;
    tx.commit().await?;
    Ok(envelope::item(item(&state, row).await?))
}
