//! A user's column presets of a table type: the built-in Defaults, the caller's presets of
//! a type (the Default first), and saving, changing and deleting their own, with names
//! unique per type and at most [`MAX_PRESETS`] per type.

use std::collections::HashSet;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    report::Level,
    store,
};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    ColumnPreset, DEFAULT_NAME, DEFAULT_READ_ONLY, DEFAULT_UNDELETABLE, LIMIT_REACHED,
    MAX_NAME_CHARS, MAX_PRESETS, NAME_TAKEN, PresetRef, REQUIRED, default_preset, level_of,
    path_level, saved,
};
use crate::{
    access::{InWorkspace, Member},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// A preset name: required, trimmed, at most [`MAX_NAME_CHARS`], not `Default`.
fn name_of(value: Option<&Value>) -> Result<String, FieldError> {
    let name = match value {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.trim(),
        Some(_) => return Err(FieldError::new("name", "The name must be a text")),
    };
    if name.is_empty() {
        Err(FieldError::new("name", REQUIRED))
    } else if name.chars().count() > MAX_NAME_CHARS {
        Err(FieldError::new(
            "name",
            format!("At most {MAX_NAME_CHARS} characters"),
        ))
    } else if name.eq_ignore_ascii_case(DEFAULT_NAME) {
        Err(FieldError::new("name", NAME_TAKEN))
    } else {
        Ok(name.to_string())
    }
}

/// A preset's columns: a non-empty list of distinct column keys of `level` (the report
/// catalog's list); each bad entry is named `fields.<i>`.
fn fields_of(value: Option<&Value>, level: Level) -> Result<Vec<String>, Vec<FieldError>> {
    let Some(Value::Array(list)) = value else {
        return Err(vec![FieldError::new(
            "fields",
            "Choose the columns: a list of column keys",
        )]);
    };
    if list.is_empty() {
        return Err(vec![FieldError::new(
            "fields",
            "Choose at least one column",
        )]);
    }
    let columns = level.all_columns();
    let mut seen = HashSet::new();
    let mut errors = Vec::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = format!("fields.{i}");
        match v.as_str() {
            Some(key) if columns.contains(&key) => {
                if seen.insert(key) {
                    out.push(key.to_string());
                } else {
                    errors.push(FieldError::new(at, "This column is listed twice"));
                }
            }
            Some(key) => errors.push(FieldError::new(
                at,
                format!("{key:?} is not a column of {}", level.name()),
            )),
            None => errors.push(FieldError::new(at, "A column key must be a text")),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The Default preset of every type (`result.items`).
#[utoipa::path(get, path = "/api/setFields/defaultFields", tag = "presets",
    responses((status = 200, description = "The built-in Default preset of every type", body = Envelope<Items<ColumnPreset>>)))]
pub async fn default_fields(_user: Member) -> impl IntoResponse {
    envelope::items(Level::ALL.into_iter().map(default_preset).collect())
}

/// The caller's presets of a type: the Default first, then the saved ones, oldest first.
#[utoipa::path(get, path = "/api/setFields/all/{type}", tag = "presets",
    params(("type" = searchdeck_common::report::Level, Path, description = "CAMPAIGNS, GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS, ADS, ACCOUNTS or ORGS")),
    responses((status = 200, description = "Default and saved presets of the type", body = Envelope<Items<ColumnPreset>>),
              (status = 400, description = "Unknown type", body = ErrorBody)))]
pub async fn all_of_type(
    State(state): State<AppState>,
    user: Member,
    ApiPath(kind): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let level = path_level(&kind)?;
    let rows = store::presets::list(
        &state.db.pool,
        &user.workspace_id,
        &user.user_id,
        level.name(),
    )
    .await?;
    let mut items = vec![default_preset(level)];
    items.extend(rows.into_iter().map(saved));
    Ok(envelope::items(items))
}

/// A preset to save or change (`PUT one`: fields, name, type; `PATCH one/{id}`: any of
/// name and fields, with id and type optional but checked when given).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PresetBody {
    /// Column keys in display order.
    #[schema(value_type = Option<Vec<String>>)]
    pub fields: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub name: Option<Value>,
    /// CAMPAIGNS, GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS, ADS, ACCOUNTS or ORGS.
    #[serde(rename = "type")]
    #[schema(value_type = Option<String>)]
    pub kind: Option<Value>,
    /// On PATCH: the id of the path, if given.
    #[schema(value_type = Option<String>)]
    pub id: Option<Value>,
}

fn name_taken() -> ApiError {
    ApiError::field("name", NAME_TAKEN)
}

/// 400 for the limit, with the limit in `meta`.
fn limit_reached() -> ApiError {
    ApiError::Status {
        status: StatusCode::BAD_REQUEST,
        message: LIMIT_REACHED.into(),
        errors: Vec::new(),
        meta: Some(serde_json::json!({ "limit": MAX_PRESETS })),
        retry_after: None,
    }
}

/// Saves a new preset of the caller.
#[utoipa::path(put, path = "/api/setFields/one", operation_id = "create_column_preset", tag = "presets", request_body = PresetBody,
    responses((status = 200, description = "The saved preset", body = Envelope<Item<ColumnPreset>>),
              (status = 400, description = "Invalid type, name or fields; name taken; preset limit reached", body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: Member,
    ApiJson(body): ApiJson<PresetBody>,
) -> ApiResult<impl IntoResponse> {
    let mut errors = Vec::new();
    let level = level_of(body.kind.as_ref(), "type").map_err(|e| errors.push(e));
    let name = name_of(body.name.as_ref()).map_err(|e| errors.push(e));
    let fields = match level {
        Ok(level) => fields_of(body.fields.as_ref(), level).map_err(|e| errors.extend(e)),
        Err(()) => Err(()),
    };
    let (Ok(level), Ok(name), Ok(fields)) = (level, name, fields) else {
        return Err(ApiError::validation(errors));
    };
    let id = new_id();
    let (pool, ws, uid) = (&state.db.pool, &user.workspace_id, &user.user_id);
    Db::retry_busy(|| async {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        store::presets::lock_owner(&mut *tx, uid).await?;
        if store::presets::count(&mut *tx, ws, uid, level.name()).await? >= MAX_PRESETS {
            return Err(limit_reached());
        }
        if store::presets::name_taken(&mut *tx, ws, uid, level.name(), &name, None).await? {
            return Err(name_taken());
        }
        let new = store::presets::NewPreset {
            id: &id,
            workspace_id: ws,
            user_id: uid,
            kind: level.name(),
            name: &name,
            fields: &fields,
            now: now_ms(),
        };
        match store::presets::insert(&mut *tx, new).await {
            Err(e) if Db::is_unique_violation(&e) => return Err(name_taken()),
            other => other?,
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    let row = store::presets::in_workspace(pool, ws, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("Preset"))?;
    Ok(envelope::item(saved(row)))
}

/// Renames a saved preset of the caller and/or replaces its columns. A missing id (or
/// another member's) answers 404; the Default preset cannot be changed.
#[utoipa::path(patch, path = "/api/setFields/one/{id}", operation_id = "update_column_preset", tag = "presets", request_body = PresetBody,
    params(("id" = String, Path, description = "Preset id")),
    responses((status = 200, description = "The changed preset", body = Envelope<Item<ColumnPreset>>),
              (status = 400, description = "Invalid name or fields; name taken; the Default preset", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    preset: InWorkspace<PresetRef>,
    ApiJson(body): ApiJson<PresetBody>,
) -> ApiResult<impl IntoResponse> {
    let user = &preset.caller;
    let row = match preset.item.owned_by(&user.user_id)? {
        PresetRef::Default(_) => return Err(ApiError::field("id", DEFAULT_READ_ONLY)),
        PresetRef::Saved(row) => row,
    };
    let level = Level::parse(&row.kind).expect("the schema checks the type");
    let mut errors = Vec::new();
    match &body.id {
        None | Some(Value::Null) => {}
        Some(Value::String(id)) if *id == row.id => {}
        Some(_) => errors.push(FieldError::new(
            "id",
            "The id does not match the preset of the path",
        )),
    }
    if !matches!(body.kind, None | Some(Value::Null)) {
        match level_of(body.kind.as_ref(), "type") {
            Ok(l) if l == level => {}
            Ok(_) => errors.push(FieldError::new("type", "A preset's type cannot change")),
            Err(e) => errors.push(e),
        }
    }
    let name = match &body.name {
        None | Some(Value::Null) => None,
        v => name_of(v.as_ref()).map_err(|e| errors.push(e)).ok(),
    };
    let fields = match &body.fields {
        None | Some(Value::Null) => None,
        v => fields_of(v.as_ref(), level)
            .map_err(|e| errors.extend(e))
            .ok(),
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    if name.is_none() && fields.is_none() {
        return Err(ApiError::bad_request(
            "Nothing to change: give a name or fields",
        ));
    }
    let (pool, ws, uid) = (&state.db.pool, &user.workspace_id, &user.user_id);
    let (id, name, fields) = (&row.id, name.as_deref(), fields.as_deref());
    Db::retry_busy(|| async {
        let mut tx = searchdeck_common::db::begin_write(pool).await?;
        if let Some(name) = name
            && store::presets::name_taken(&mut *tx, ws, uid, level.name(), name, Some(id)).await?
        {
            return Err(name_taken());
        }
        let found = match store::presets::update(&mut *tx, id, name, fields, now_ms()).await {
            Err(e) if Db::is_unique_violation(&e) => return Err(name_taken()),
            other => other?,
        };
        if !found {
            return Err(ApiError::not_found("Preset"));
        }
        tx.commit().await?;
        Ok::<(), ApiError>(())
    })
    .await?;
    let row = store::presets::in_workspace(pool, ws, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Preset"))?;
    Ok(envelope::item(saved(row)))
}

/// Deletes a saved preset of the caller (the Default preset cannot be deleted).
#[utoipa::path(delete, path = "/api/setFields/one/{id}", operation_id = "remove_column_preset", tag = "presets",
    params(("id" = String, Path, description = "Preset id")),
    responses((status = 200, description = "The deleted preset", body = Envelope<Item<ColumnPreset>>),
              (status = 400, description = "The Default preset", body = ErrorBody)))]
pub async fn remove(
    State(state): State<AppState>,
    preset: InWorkspace<PresetRef>,
) -> ApiResult<impl IntoResponse> {
    let row = match preset.item.owned_by(&preset.caller.user_id)? {
        PresetRef::Default(_) => return Err(ApiError::field("id", DEFAULT_UNDELETABLE)),
        PresetRef::Saved(row) => row,
    };
    if !store::presets::delete(&state.db.pool, &row.id).await? {
        return Err(ApiError::not_found("Preset"));
    }
    Ok(envelope::item(saved(row)))
}
