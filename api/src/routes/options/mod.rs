//! Options saved for the web app (`options/front`, docs/product.md#3-options-saved-per-user), per
//! user and workspace.
//!
//! Keys are short names (`suggester-entry`, `optimization-filters-presets`, onboarding
//! flags…) holding any JSON value. A user in several workspaces has a separate set in each
//! (the session's workspace's); the personal keys (`language`, `theme`, `onboarding-*`:
//! `store::options::is_personal`) are the same in all of them (docs/api/team.md, "Options
//! per workspace"). A PUT merges its keys into the saved set (a `null` value
//! removes the key). The suggester's saved entry, loader and last item expire after 24 hours
//! (docs/product.md#4-suggester) and are dropped when read after that.
//!
//! Saves can be conditional: every answer carries the options' `version` (also as the
//! `ETag`), and a PUT with `If-Match: "<version>"` is refused with 412 when a key it writes
//! was changed by another save since that version (two tabs appending filter presets:
//! the second is told to reload instead of silently dropping the first's preset). A PUT
//! without `If-Match` merges unconditionally, as before. The version counts the user's saves
//! in every workspace; only a key written since in the same set makes a 412. A user's
//! options in one workspace (personal ones included) hold at most [`MAX_TOTAL_BYTES`] of JSON.

use std::collections::BTreeMap;

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::IntoResponse,
};
use searchdeck_common::{Db, ids::now_ms, store, store::options::Owner};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::Member,
    envelope::{self, Envelope},
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
/// Largest total size of one user's saved options (JSON bytes).
pub const MAX_TOTAL_BYTES: usize = 1024 * 1024;
/// Message of a conditional save based on an outdated read.
pub const STALE_OPTIONS: &str =
    "These options were changed in another window. Reload them and save again";
/// Message of a save that would take the options over [`MAX_TOTAL_BYTES`].
pub const OPTIONS_TOO_LARGE: &str = "Saved options are limited to 1 MB; remove some to save more";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(get_front))
        .routes(route!(put_front))
}

type Options = BTreeMap<String, Value>;

/// The saved options and their version (`result` of both routes).
#[derive(Debug, Serialize, ToSchema)]
pub struct SavedOptions {
    /// Saved options by key.
    #[schema(value_type = Object)]
    pub item: Options,
    /// Version of the options, for `If-Match` on the next save (also the `ETag`).
    pub version: i64,
}

/// The envelope with the `ETag` header of the version.
fn respond(saved: SavedOptions) -> impl IntoResponse {
    let etag = HeaderValue::from_str(&format!("\"{}\"", saved.version)).expect("digits");
    ([(header::ETAG, etag)], envelope::ok(saved))
}

/// Whose options a call of `user` reads and writes: theirs in the session's workspace.
fn owner(user: &Member) -> Owner<'_> {
    Owner {
        user_id: &user.user_id,
        workspace_id: &user.workspace_id,
    }
}

async fn load(state: &AppState, owner: Owner<'_>) -> Result<SavedOptions, ApiError> {
    let version = store::options::version(&state.db.pool, owner.user_id).await?;
    let rows = store::options::all(&state.db.pool, owner).await?;
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
        store::options::delete(&state.db.pool, owner, &key).await?;
    }
    Ok(SavedOptions {
        item: options,
        version,
    })
}

/// The version named by `If-Match` (`"7"`, `W/"7"`); `None` without the header or for `*`.
fn if_match(headers: &HeaderMap) -> ApiResult<Option<i64>> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let raw = value.to_str().unwrap_or_default().trim();
    if raw == "*" {
        return Ok(None);
    }
    raw.trim_start_matches("W/")
        .trim_matches('"')
        .parse()
        .map(Some)
        .map_err(|_| ApiError::bad_request("If-Match must be the ETag of the saved options"))
}

fn stale(current: i64) -> ApiError {
    ApiError::Status {
        status: StatusCode::PRECONDITION_FAILED,
        message: STALE_OPTIONS.into(),
        errors: Vec::new(),
        meta: Some(serde_json::json!({ "version": current })),
        retry_after: None,
    }
}

/// The caller's saved options in the session's workspace (with their personal ones).
#[utoipa::path(get, path = "/api/options/front", tag = "options",
    responses((status = 200, description = "Saved options by key, with their version (also the ETag)", body = Envelope<SavedOptions>)))]
pub async fn get_front(
    State(state): State<AppState>,
    user: Member,
) -> ApiResult<impl IntoResponse> {
    Ok(respond(load(&state, owner(&user)).await?))
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
        } else if key == FILTER_PRESETS_KEY && !value.is_null() {
            // Filter presets: a list of {name, type, filters}, each filter valid by the
            // report engine's rules (docs/product.md#5-filters); errors name the path
            // inside the option.
            errors.extend(super::fields::validate_filter_presets(key, value));
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(ApiError::validation(errors))
    }
}

/// Saves the given option keys (merging; `null` removes a key) and returns all options.
/// With `If-Match`, refused with 412 when a key it writes changed since that version.
#[utoipa::path(put, path = "/api/options/front", tag = "options", request_body = crate::schemas::OptionsBody,
    params(("If-Match" = Option<String>, Header, nullable = false, pattern = r#"^\s*(\*|(W/)?"*[+-]?[0-9]{1,18}"*)\s*$"#, description = "ETag (version) of the options this save is based on")),
    responses((status = 200, description = "Saved options by key, with their new version", body = Envelope<SavedOptions>),
              (status = 400, description = "Invalid options, or over 1 MB in total", body = ErrorBody),
              (status = 412, description = "A key changed since the If-Match version; reload", body = ErrorBody)))]
pub async fn put_front(
    State(state): State<AppState>,
    user: Member,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<impl IntoResponse> {
    let map = validate(&body)?;
    let expected = if_match(&headers)?;
    let (pool, owner) = (&state.db.pool, owner(&user));
    Db::retry_busy(move || async move {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        // Bumping the version first serialises concurrent saves of one user.
        let version = store::options::bump_version(&mut *tx, owner.user_id).await?;
        if let Some(expected) = expected {
            for key in map.keys() {
                if store::options::changed_since(&mut *tx, owner, key, expected).await? {
                    return Err(stale(version - 1));
                }
            }
        }
        let now = now_ms();
        for (key, value) in map {
            if value.is_null() {
                store::options::delete(&mut *tx, owner, key).await?;
            } else {
                let json = value.to_string();
                store::options::upsert(&mut *tx, owner, key, &json, now, version).await?;
            }
        }
        let saved = store::options::all(&mut *tx, owner).await?;
        if saved.iter().map(|r| r.value.len()).sum::<usize>() > MAX_TOTAL_BYTES {
            return Err(ApiError::bad_request(OPTIONS_TOO_LARGE));
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    Ok(respond(load(&state, owner).await?))
}
