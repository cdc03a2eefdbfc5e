//! Options saved per user for the web app (`options/front`, spec §3).
//!
//! Keys are short names (`suggester-entry`, `optimization-filters-presets`, onboarding
//! flags…) holding any JSON value. A PUT merges its keys into the saved set (a `null` value
//! removes the key). The suggester's saved entry, loader and last item expire after 24 hours
//! (spec §4) and are dropped when read after that.

use std::collections::BTreeMap;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::now_ms, store};
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Member,
    envelope,
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::ApiJson,
    route,
    state::AppState,
};

/// Options that live for 24 hours only.
pub const EXPIRING_KEYS: &[&str] = &["suggester-entry", "suggester-loader", "suggester-last-item"];
pub const EXPIRY_MS: i64 = 24 * 3600 * 1000;
/// Option that must hold a JSON list.
pub const FILTER_PRESETS_KEY: &str = "optimization-filters-presets";
const MAX_KEYS: usize = 50;
const MAX_KEY_LEN: usize = 64;
const MAX_VALUE_BYTES: usize = 256 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(get_front))
        .routes(route!(put_front))
}

type Options = BTreeMap<String, Value>;

async fn load(state: &AppState, user_id: &str) -> Result<Options, ApiError> {
    let rows = store::options::all(&state.db.pool, user_id).await?;
    let cutoff = now_ms() - EXPIRY_MS;
    let mut options = Options::new();
    let mut expired = Vec::new();
    for row in rows {
        if EXPIRING_KEYS.contains(&row.key.as_str()) && row.updated_at < cutoff {
            expired.push(row.key);
            continue;
        }
        options.insert(
            row.key,
            serde_json::from_str(&row.value).unwrap_or(Value::Null),
        );
    }
    for key in expired {
        store::options::delete(&state.db.pool, user_id, &key).await?;
    }
    Ok(options)
}

/// The caller's saved options.
#[utoipa::path(get, path = "/api/options/front", tag = "options",
    responses((status = 200, description = "Saved options by key", body = Envelope<Item<Object>>)))]
pub async fn get_front(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    Ok(envelope::item(load(&state, &user.user_id).await?))
}

fn validate(body: &Value) -> Result<&serde_json::Map<String, Value>, ApiError> {
    let Value::Object(map) = body else {
        return Err(ApiError::bad_request(
            "Options must be a JSON object of option keys",
        ));
    };
    if map.is_empty() {
        return Err(ApiError::bad_request("No options to save"));
    }
    if map.len() > MAX_KEYS {
        return Err(ApiError::bad_request(format!(
            "At most {MAX_KEYS} options can be saved at once"
        )));
    }
    let mut errors = Vec::new();
    for (key, value) in map {
        let key_ok = !key.is_empty()
            && key.len() <= MAX_KEY_LEN
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !key_ok {
            errors.push(FieldError::new(
                key,
                "Option names are 1-64 letters, digits, '-' or '_'",
            ));
        } else if value.to_string().len() > MAX_VALUE_BYTES {
            errors.push(FieldError::new(key, "This option is too large"));
        } else if key == FILTER_PRESETS_KEY && !(value.is_array() || value.is_null()) {
            errors.push(FieldError::new(key, "Filter presets must be a list"));
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(ApiError::validation(errors))
    }
}

/// Saves the given option keys (merging; `null` removes a key) and returns all options.
#[utoipa::path(put, path = "/api/options/front", tag = "options", request_body = Object,
    responses((status = 200, description = "Saved options by key", body = Envelope<Item<Object>>),
              (status = 400, description = "Invalid options", body = ErrorBody)))]
pub async fn put_front(
    State(state): State<AppState>,
    user: Member,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<impl IntoResponse> {
    let map = validate(&body)?;
    let now = now_ms();
    let mut tx = state.db.pool.begin().await?;
    for (key, value) in map {
        if value.is_null() {
            store::options::delete(&mut *tx, &user.user_id, key).await?;
        } else {
            store::options::upsert(&mut *tx, &user.user_id, key, &value.to_string(), now).await?;
        }
    }
    tx.commit().await?;
    Ok(envelope::item(load(&state, &user.user_id).await?))
}
