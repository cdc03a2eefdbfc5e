//! Column presets (`setFields/*`, spec §2 edit-columns modal, §3 Column preset, §5 column
//! preset rules, §7 setFields) and the validation of filter presets saved in
//! `options/front` (spec §3 Filter preset, §5 filter validity).
//!
//! A column preset is a named list of column keys for one table type (CAMPAIGNS, GROUPS,
//! KEYWORDS, NEGATIVE, SEARCHTERMS, ADS, ACCOUNTS, ORGS). The columns a type can show come
//! from the report catalog ([`searchdeck_common::report::catalog`], the one list the report
//! engine serves), so a preset can only name columns a report returns. Every type has a
//! built-in Default preset (id `default-<TYPE>`, the catalog's default columns) that cannot
//! be deleted, renamed or changed; besides it each user saves at most
//! [`MAX_PRESETS`] presets per type and workspace, with names required and unique per type
//! (case-insensitive; `Default` is reserved).
//!
//! Presets belong to the user who saved them: they only change that user's view, so every
//! signed-in role may save, rename and delete their own (spec §6: "other routes: any
//! signed-in role"); another user's preset id answers 404 like a missing one.

use std::collections::HashSet;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    plan::Plan,
    report::{
        self, Filter, FilterIn, Level,
        catalog::{COLUMN_GROUPS, CONVERSION_COLUMNS, GROWTH_ONLY, HIDDEN_BY_DEFAULT, group_of},
    },
    store::{self, presets::PresetRow},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{InWorkspace, Member, WorkspaceResource},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath},
    route,
    state::AppState,
};

/// Most presets a user saves per type and workspace, besides the built-in Default (spec §9).
pub const MAX_PRESETS: i64 = 10;
/// Longest preset name.
pub const MAX_NAME_CHARS: usize = 50;
/// Name of the built-in preset of every type.
pub const DEFAULT_NAME: &str = "Default";
/// Message of a save over [`MAX_PRESETS`] (spec §5).
pub const LIMIT_REACHED: &str = "Preset limit reached. Delete presets to save more";
/// Message of a name already used by another preset of the type (spec §5).
pub const NAME_TAKEN: &str = "A preset with this name already exists";
/// Message of a required value left empty.
pub const REQUIRED: &str = "Please complete this field to continue";
/// Message of a change to the built-in Default preset.
pub const DEFAULT_READ_ONLY: &str =
    "The Default preset cannot be changed; save your columns as a new preset";
/// Message of a delete of the built-in Default preset.
pub const DEFAULT_UNDELETABLE: &str = "The Default preset cannot be deleted";
/// Message of a Pro-locked (Conversions) column on the pro_limited plan (spec §6).
pub const PRO_LOCK_MESSAGE: &str = searchdeck_common::report::catalog::PRO_LOCK_MESSAGE;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(default_fields))
        .routes(route!(all_of_type))
        .routes(route!(fields_of_type))
        .routes(route!(create))
        .routes(route!(update))
        .routes(route!(remove))
}

/// A column preset as answered (spec §3 Column preset: `_id`, name, type, fields).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ColumnPreset {
    /// `default-<TYPE>` for the built-in Default preset.
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: Level,
    /// Column keys in display order.
    pub fields: Vec<String>,
    /// The built-in Default preset (cannot be deleted, renamed or changed).
    pub is_default: bool,
    /// When it was saved (ms since epoch); None for Default.
    pub created_at: Option<i64>,
    pub updated_at: Option<i64>,
}

fn default_id(level: Level) -> String {
    format!("default-{}", level.name())
}

/// The built-in Default preset of `level`.
pub fn default_preset(level: Level) -> ColumnPreset {
    ColumnPreset {
        id: default_id(level),
        name: DEFAULT_NAME.into(),
        kind: level,
        fields: level
            .default_columns()
            .into_iter()
            .map(String::from)
            .collect(),
        is_default: true,
        created_at: None,
        updated_at: None,
    }
}

fn saved(row: PresetRow) -> ColumnPreset {
    ColumnPreset {
        kind: Level::parse(&row.kind).expect("the schema checks the type"),
        id: row.id,
        name: row.name,
        fields: row.fields,
        is_default: false,
        created_at: Some(row.created_at),
        updated_at: Some(row.updated_at),
    }
}

/// A preset addressed by id: the built-in Default of a type, or a saved one.
#[derive(Debug)]
pub enum PresetRef {
    Default(Level),
    Saved(PresetRow),
}

impl WorkspaceResource for PresetRef {
    const NAME: &'static str = "Preset";
    const KIND: &'static str = "column-preset";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        if let Some(level) = id.strip_prefix("default-").and_then(Level::parse)
            && default_id(level) == id
        {
            return Ok(Some(PresetRef::Default(level)));
        }
        Ok(store::presets::in_workspace(&db.pool, workspace_id, id)
            .await?
            .map(PresetRef::Saved))
    }
}

impl PresetRef {
    /// The saved preset if the caller saved it (another member's answers 404 like a
    /// missing one), or the Default.
    fn owned_by(self, user_id: &str) -> ApiResult<PresetRef> {
        match self {
            PresetRef::Saved(row) if row.user_id != user_id => Err(ApiError::not_found(Self::NAME)),
            other => Ok(other),
        }
    }
}

/// The type named by a path or body value, else a field error on `field`.
fn level_of(value: Option<&Value>, field: &str) -> Result<Level, FieldError> {
    match value {
        None | Some(Value::Null) => Err(FieldError::new(field, REQUIRED)),
        Some(Value::String(s)) if s.trim().is_empty() => Err(FieldError::new(field, REQUIRED)),
        Some(Value::String(s)) => Level::parse(s).ok_or_else(|| {
            FieldError::new(
                field,
                "Unknown type: use CAMPAIGNS, GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS, ADS, ACCOUNTS or ORGS",
            )
        }),
        Some(_) => Err(FieldError::new(field, "The type must be a text")),
    }
}

fn path_level(kind: &str) -> ApiResult<Level> {
    level_of(Some(&Value::String(kind.into())), "type").map_err(|e| ApiError::validation(vec![e]))
}

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

/// Why a column cannot be shown on the workspace's plan (spec §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Lock {
    /// Growth-only metric: shown with a Growth badge unless the plan is growth,
    /// growth_trial or agency.
    Growth,
    /// Conversions group on the pro_limited plan.
    Pro,
}

/// One column of the edit-columns modal.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ColumnInfo {
    /// The column key presets list.
    pub key: String,
    /// Whether the workspace's plan locks it.
    pub locked: bool,
    /// Why it is locked.
    pub lock: Option<Lock>,
    /// The upsell message of a locked column.
    pub lock_message: Option<String>,
    /// Hidden by default (spec §2 Tables).
    pub hidden_by_default: bool,
    /// Part of the Default preset.
    pub in_default: bool,
}

/// A group of columns (`Attributes`, `Metrics`, `Conversions`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ColumnGroup {
    /// The group name.
    pub name: String,
    pub fields: Vec<ColumnInfo>,
}

fn lock_of(column: &str, plan: Plan) -> Option<Lock> {
    if GROWTH_ONLY.contains(&column) && !plan.has_growth() {
        Some(Lock::Growth)
    } else if CONVERSION_COLUMNS.contains(&column) && plan == Plan::ProLimited {
        Some(Lock::Pro)
    } else {
        None
    }
}

/// The columns of a level grouped for the edit-columns modal, with the plan's locks.
pub fn column_groups(level: Level, plan: Plan) -> Vec<ColumnGroup> {
    let all = level.all_columns();
    let default = level.default_columns();
    COLUMN_GROUPS
        .iter()
        .map(|group| ColumnGroup {
            name: (*group).to_string(),
            fields: all
                .iter()
                .filter(|c| group_of(c) == *group)
                .map(|c| {
                    let lock = lock_of(c, plan);
                    ColumnInfo {
                        key: (*c).to_string(),
                        locked: lock.is_some(),
                        lock,
                        lock_message: lock.map(|l| match l {
                            Lock::Growth => "Available on the Growth plan".to_string(),
                            Lock::Pro => PRO_LOCK_MESSAGE.to_string(),
                        }),
                        hidden_by_default: HIDDEN_BY_DEFAULT.contains(c),
                        in_default: default.contains(c),
                    }
                })
                .collect(),
        })
        .filter(|g| !g.fields.is_empty())
        .collect()
}

/// The columns a type's table can show, grouped by group name, each with its plan lock.
#[utoipa::path(get, path = "/api/setFields/fields/{type}", tag = "presets",
    params(("type" = searchdeck_common::report::Level, Path, description = "CAMPAIGNS, GROUPS, KEYWORDS, NEGATIVE, SEARCHTERMS, ADS, ACCOUNTS or ORGS")),
    responses((status = 200, description = "Column groups of the type", body = Envelope<Items<ColumnGroup>>),
              (status = 400, description = "Unknown type", body = ErrorBody)))]
pub async fn fields_of_type(
    State(state): State<AppState>,
    user: Member,
    ApiPath(kind): ApiPath<String>,
) -> ApiResult<impl IntoResponse> {
    let level = path_level(&kind)?;
    let plan = state.engines.plan(&state.db, &user.workspace_id).await?;
    Ok(envelope::items(column_groups(level, plan)))
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

/// Validates the `optimization-filters-presets` option: a list of filter presets
/// `{name, type, filters}` (spec §3): a name, a table type, a list of filters (empty for
/// a preset that clears them), each filter valid by the report engine's rules
/// ([`Filter::parse`], spec §5: a non-empty value, a list without empty entries, a
/// condition where the filter has one). Errors name the path, e.g.
/// `optimization-filters-presets.0.filters.1.value`.
pub fn validate_filter_presets(key: &str, value: &Value) -> Vec<FieldError> {
    let Value::Array(presets) = value else {
        return vec![FieldError::new(key, "Filter presets must be a list")];
    };
    let mut errors = Vec::new();
    let mut names = HashSet::new();
    for (i, preset) in presets.iter().enumerate() {
        let at = |field: &str| format!("{key}.{i}.{field}");
        let Value::Object(p) = preset else {
            errors.push(FieldError::new(
                format!("{key}.{i}"),
                "A filter preset has a name, a type and filters",
            ));
            continue;
        };
        match p.get("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            Some(Value::String(_)) | None | Some(Value::Null) => {
                errors.push(FieldError::new(at("name"), REQUIRED))
            }
            Some(_) => errors.push(FieldError::new(at("name"), "The name must be a text")),
        }
        let level = level_of(p.get("type"), &at("type"))
            .map_err(|e| errors.push(e))
            .ok();
        if let (Some(level), Some(Value::String(name))) = (level, p.get("name"))
            && !name.trim().is_empty()
            && !names.insert((level, name.trim().to_lowercase()))
        {
            errors.push(FieldError::new(at("name"), NAME_TAKEN));
        }
        let filters = match p.get("filters") {
            // An empty list is a preset that clears the filters.
            Some(Value::Array(list)) => list,
            _ => {
                errors.push(FieldError::new(at("filters"), "Filters must be a list"));
                continue;
            }
        };
        for (j, f) in filters.iter().enumerate() {
            let parsed = serde_json::from_value::<FilterIn>(f.clone())
                .map_err(|_| {
                    FieldError::new(
                        at(&format!("filters.{j}")),
                        "A filter has a type, a condition and a value",
                    )
                })
                .and_then(|input| {
                    Filter::parse(j, &input).map_err(|e| {
                        // The engine names `filters[j].value`; answer the option's path.
                        let field = e.field.replace(&format!("filters[{j}]"), "");
                        FieldError::new(at(&format!("filters.{j}{field}")), e.message)
                    })
                });
            if let (Ok(filter), Some(level)) = (parsed.as_ref(), level)
                && matches!(filter.field, report::filter::Field::Metric(_))
                && !level.has_metrics()
            {
                errors.push(FieldError::new(
                    at(&format!("filters.{j}.metric")),
                    format!("{} rows have no metrics", level.name()),
                ));
            }
            if let Err(e) = parsed {
                errors.push(e);
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn filter_preset_errors_name_their_path() {
        let key = "optimization-filters-presets";
        let ok = json!([{"name": "Big", "type": "KEYWORDS", "filters": [
            {"type": "metrics", "metric": "taps", "condition": ">", "value": 10},
            {"type": "status", "value": ["RUNNING"]}
        ]}]);
        assert_eq!(validate_filter_presets(key, &ok), vec![]);
        let bad = json!([
            {"name": "Big", "type": "KEYWORDS", "filters": [
                {"type": "name", "condition": "contains", "value": "fit"},
                {"type": "status", "value": ["RUNNING", ""]}
            ]},
            {"name": "", "type": "NOPE", "filters": {}},
            {"name": "Neg", "type": "NEGATIVE", "filters": [{"type": "metrics", "metric": "taps", "condition": ">", "value": 1}]},
            {"name": "big", "type": "KEYWORDS", "filters": [{"type": "name", "value": "x"}]},
            "text"
        ]);
        let fields: Vec<String> = validate_filter_presets(key, &bad)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            [
                "optimization-filters-presets.0.filters.1.value",
                "optimization-filters-presets.1.name",
                "optimization-filters-presets.1.type",
                "optimization-filters-presets.1.filters",
                "optimization-filters-presets.2.filters.0.metric",
                "optimization-filters-presets.3.name",
                "optimization-filters-presets.3.filters.0.condition",
                "optimization-filters-presets.4",
            ]
        );
        assert_eq!(validate_filter_presets(key, &json!({})).len(), 1);
    }

    #[test]
    fn column_groups_lock_by_plan() {
        let groups = column_groups(Level::Keywords, Plan::ProFree);
        let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["Attributes", "Metrics", "Conversions"]);
        let find = |groups: &[ColumnGroup], key: &str| {
            groups
                .iter()
                .flat_map(|g| &g.fields)
                .find(|c| c.key == key)
                .cloned()
                .unwrap()
        };
        assert_eq!(find(&groups, "qsStatus").lock, Some(Lock::Growth));
        assert_eq!(find(&groups, "totalRevenue").lock, None);
        assert!(!find(&groups, "taps").locked);
        let limited = column_groups(Level::Keywords, Plan::ProLimited);
        assert_eq!(find(&limited, "totalRevenue").lock, Some(Lock::Pro));
        let growth = column_groups(Level::Keywords, Plan::Growth);
        assert_eq!(find(&growth, "qsStatus").lock, None);
        let negative = column_groups(Level::Negative, Plan::ProFree);
        assert_eq!(negative.len(), 1, "negative keywords have no metrics");
    }
}
