//! App Store Connect, a second revenue source (docs/api/app-store-connect.md): the
//! workspace connects a team key of the App Store Connect API (`PUT
//! /api/users/one/connect/appStore`, multipart: `issuerId`, `keyId`, `vendorNumber` and the
//! `.p8` file as `key`), lists its connections (`GET`) and disconnects one (`DELETE
//! …/{id}`). The key is checked against Apple before anything is stored (the apps it sees,
//! and the vendor number with a sales report); it is sealed with the secrets key, never
//! answered, logged or put in a job. Connecting enqueues the 30-day backfill in the same
//! transaction and registers the daily read.

use axum::{extract::State, response::IntoResponse};
use rust_decimal::Decimal;
use searchdeck_common::{
    ids::{new_id, now_ms},
    jobs::{
        PullAppStoreSales, SALES_BACKFILL_DAYS, SALES_EVERY_MS, SALES_REFRESH_DAYS,
        sales_schedule_key,
    },
    queue::{Job, outbox},
    store::{
        self,
        app_store_connect::{Connection, NewConnection, key_context},
    },
};
use searchdeck_provider::appstore_connect::{
    AscError, AscKey, is_issuer_id, is_key_id, is_vendor_number,
};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::{
    access::{AppStoreConnection, EditRoles, Editor, InWorkspace, Member},
    domain::{Fields, REQUIRED},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::MultipartForm,
    state::AppState,
};

/// An app a connection's key sees.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AscAppItem {
    /// The app's Apple ID (the adam id Apple Ads names it by).
    pub adam_id: i64,
    pub name: String,
    pub bundle_id: String,
}

/// An App Store Connect connection as the Integrations screen shows it (the key itself is
/// never answered).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppStoreConnectionItem {
    pub id: String,
    /// The key id, as App Store Connect lists the key.
    pub name: String,
    pub issuer_id: String,
    pub key_id: String,
    pub vendor_number: String,
    /// The apps the key saw when it was connected.
    pub apps: Vec<AscAppItem>,
    /// Whether daily sales have been read (the integration is 'Active'; else 'Loading
    /// data').
    pub history: bool,
    /// The newest day whose sales report was read (YYYY-MM-DD), null before the first.
    pub last_day: Option<String>,
    /// When a read last succeeded (unix ms).
    pub last_success_at: Option<i64>,
    /// Why the last read failed, in the user's words; null once one succeeds.
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    /// When the key was connected (unix ms).
    pub created_at: i64,
}

impl AppStoreConnectionItem {
    pub fn of(c: &Connection) -> AppStoreConnectionItem {
        let apps: Vec<serde_json::Value> = serde_json::from_str(&c.apps).unwrap_or_default();
        AppStoreConnectionItem {
            id: c.id.clone(),
            name: c.name.clone(),
            issuer_id: c.issuer_id.clone(),
            key_id: c.key_id.clone(),
            vendor_number: c.vendor_number.clone(),
            apps: apps
                .iter()
                .filter_map(|a| {
                    Some(AscAppItem {
                        adam_id: a["adamId"].as_i64()?,
                        name: a["name"].as_str().unwrap_or_default().into(),
                        bundle_id: a["bundleId"].as_str().unwrap_or_default().into(),
                    })
                })
                .collect(),
            history: c.days_read > 0,
            last_day: c.last_day.clone(),
            last_success_at: c.last_success_at,
            last_error: c.last_error.clone(),
            last_error_at: c.last_error_at,
            created_at: c.created_at,
        }
    }
}

/// The User item's `connects.appStore` entries (spec §3: `id`, `name`, `history`).
pub async fn user_connects(
    state: &AppState,
    workspace_id: &str,
) -> ApiResult<Vec<serde_json::Value>> {
    Ok(store::app_store_connect::all(&state.db.pool, workspace_id)
        .await?
        .iter()
        .map(|c| json!({"id": c.id, "name": c.name, "history": c.days_read > 0}))
        .collect())
}

/// The fields of `users/one/connect/appStore` (read from the multipart body; this type
/// documents them).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ConnectAppStoreForm {
    /// The issuer id of the team's API keys (Users and Access › Integrations): a UUID.
    #[schema(
        pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub issuer_id: String,
    /// The key's id: 10 uppercase letters or digits.
    #[schema(pattern = "^[A-Z0-9]{10}$")]
    pub key_id: String,
    /// The vendor number (Payments and Financial Reports): the Sales and Trends reports
    /// are asked per vendor number, and the API offers no call that lists it.
    #[schema(pattern = "^[0-9]{1,12}$")]
    pub vendor_number: String,
    /// The `.p8` file App Store Connect gave for the key (PEM, PKCS#8, EC P-256).
    #[schema(value_type = String, format = Binary)]
    pub key: String,
}

/// The workspace's App Store Connect connections, oldest first.
#[utoipa::path(get, path = "/api/users/one/connect/appStore", operation_id = "list_app_store_connections", tag = "users",
    responses((status = 200, description = "The connections", body = Envelope<Items<AppStoreConnectionItem>>)))]
pub async fn list(State(state): State<AppState>, user: Member) -> ApiResult<impl IntoResponse> {
    let all = store::app_store_connect::all(&state.db.pool, &user.workspace_id).await?;
    Ok(envelope::items(
        all.iter().map(AppStoreConnectionItem::of).collect(),
    ))
}

/// The message of a refusal by App Store Connect.
fn refused_key(message: &str) -> ApiError {
    ApiError::field(
        "key",
        &format!("App Store Connect refused this key: {message}"),
    )
}

fn unreachable(e: &AscError) -> ApiError {
    tracing::warn!(error = %e, "App Store Connect could not be reached");
    ApiError::status(
        axum::http::StatusCode::BAD_GATEWAY,
        "App Store Connect could not be reached; try again in a moment",
    )
}

/// Connects a team key of the App Store Connect API: checks it with Apple (the apps it
/// sees, and a sales report of the vendor number), stores it sealed, reads the last 30 days
/// of sales at once and then every day. The same key id connected again replaces it.
#[utoipa::path(put, path = "/api/users/one/connect/appStore", operation_id = "connect_app_store", tag = "users",
    request_body(content = ConnectAppStoreForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "The connection", body = Envelope<Item<AppStoreConnectionItem>>),
              (status = 400, description = "A field refused, or the key or vendor number refused by App Store Connect", body = ErrorBody),
              (status = 502, description = "App Store Connect could not be reached", body = ErrorBody)))]
pub async fn connect(
    State(state): State<AppState>,
    user: Editor,
    MultipartForm(form): MultipartForm,
) -> ApiResult<impl IntoResponse> {
    let text = |k: &str| {
        form.get(k)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let (issuer_id, key_id, vendor) = (text("issuerId"), text("keyId"), text("vendorNumber"));
    let pem = text("key");
    let mut fields = Fields::default();
    for (field, value, ok, message) in [
        (
            "issuerId",
            &issuer_id,
            is_issuer_id(&issuer_id),
            "Must be the issuer id App Store Connect shows: a UUID",
        ),
        (
            "keyId",
            &key_id,
            is_key_id(&key_id),
            "Must be the key id App Store Connect shows: 10 uppercase letters or digits",
        ),
        (
            "vendorNumber",
            &vendor,
            is_vendor_number(&vendor),
            "Must be the vendor number of Payments and Financial Reports: digits",
        ),
    ] {
        if value.is_empty() {
            fields.ensure(false, field, REQUIRED);
        } else {
            fields.ensure(ok, field, message);
        }
    }
    let key = if pem.is_empty() {
        fields.ensure(false, "key", REQUIRED);
        None
    } else {
        fields.check("key", AscKey::new(&issuer_id, &key_id, &pem))
    };
    fields.finish()?;
    let key = key.ok_or_else(|| ApiError::field("key", REQUIRED))?;
    let client = &state.provider.app_store_connect;
    let apps = match client.apps(&key).await {
        Ok(apps) => apps,
        Err(AscError::Unauthorized(m) | AscError::Refused { message: m, .. }) => {
            return Err(refused_key(&m));
        }
        Err(e) => return Err(unreachable(&e)),
    };
    let yesterday = time::OffsetDateTime::now_utc().date() - time::Duration::days(1);
    match client.daily_sales(&key, &vendor, yesterday).await {
        Ok(_) => {}
        Err(AscError::Unauthorized(m)) => return Err(refused_key(&m)),
        Err(AscError::Refused { message, .. }) => {
            return Err(ApiError::field(
                "vendorNumber",
                &format!("App Store Connect refused this vendor number: {message}"),
            ));
        }
        Err(e) => return Err(unreachable(&e)),
    }
    let ws = &user.workspace_id;
    let sealed = state
        .secrets
        .seal(&key_context(ws, &key_id), pem.as_bytes());
    let apps_json = serde_json::Value::Array(
        apps.iter()
            .map(|a| json!({"adamId": a.adam_id, "name": a.name, "bundleId": a.bundle_id, "sku": a.sku}))
            .collect(),
    )
    .to_string();
    let now = now_ms();
    let fresh_id = new_id();
    let mut tx = state.db.begin_write().await?;
    let id = store::app_store_connect::upsert(
        &mut *tx,
        &NewConnection {
            id: &fresh_id,
            workspace_id: ws,
            issuer_id: &issuer_id,
            key_id: &key_id,
            vendor_number: &vendor,
            private_key_sealed: &sealed,
            name: &key_id,
            apps: &apps_json,
            created_by: &user.user_id,
        },
        now,
    )
    .await?;
    let job = |days| PullAppStoreSales {
        workspace_id: ws.clone(),
        connection_id: id.clone(),
        days,
    };
    let refresh = serde_json::to_string(&job(SALES_REFRESH_DAYS))
        .map_err(|e| ApiError::Internal(e.into()))?;
    store::attribution::pulls::set_schedule(
        &mut *tx,
        &sales_schedule_key(&id),
        ws,
        PullAppStoreSales::KIND,
        &refresh,
        SALES_EVERY_MS,
        now,
    )
    .await?;
    outbox::push(
        &mut *tx,
        &job(SALES_BACKFILL_DAYS),
        outbox::OutboxOptions::default(),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(apps = apps.len(), "App Store Connect key connected");
    let c = store::app_store_connect::in_workspace(&state.db.pool, ws, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("App Store Connect connection"))?;
    Ok(envelope::item(AppStoreConnectionItem::of(&c)))
}

/// Disconnects an App Store Connect key: its sales are read no more and forgotten.
#[utoipa::path(delete, path = "/api/users/one/connect/appStore/{id}", operation_id = "disconnect_app_store", tag = "users",
    params(("id" = String, Path, description = "The connection's id")),
    responses((status = 200, description = "The connections left", body = Envelope<Items<AppStoreConnectionItem>>)))]
pub async fn disconnect(
    State(state): State<AppState>,
    connection: InWorkspace<AppStoreConnection, EditRoles>,
) -> ApiResult<impl IntoResponse> {
    let ws = &connection.caller.workspace_id;
    let id = &connection.item.0.id;
    let mut tx = state.db.begin_write().await?;
    store::app_store_connect::delete(&mut *tx, ws, id).await?;
    store::attribution::pulls::delete_schedule(&mut *tx, &sales_schedule_key(id)).await?;
    tx.commit().await?;
    tracing::info!("App Store Connect key disconnected");
    let all = store::app_store_connect::all(&state.db.pool, ws).await?;
    Ok(envelope::items(
        all.iter().map(AppStoreConnectionItem::of).collect(),
    ))
}

/// Micros as a decimal amount.
pub fn amount(micros: i64) -> Decimal {
    Decimal::new(micros, 6).normalize()
}
