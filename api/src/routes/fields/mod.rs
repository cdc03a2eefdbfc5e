//! Column presets (`setFields/*`, docs/product.md#2-tables edit-columns modal,
//! docs/product.md#3-column-preset, docs/product.md#5-column-presets column preset rules,
//! docs/product.md#7-the-calls-it-makes setFields) and the validation of filter presets saved in
//! `options/front` (docs/product.md#3-filter-and-filter-preset, docs/product.md#5-filters).
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
//! signed-in role may save, rename and delete their own (docs/product.md#6-roles-and-route-limits:
//! "other routes: any signed-in role"); another user's preset id answers 404 like a missing one.
//!
//! The routes live by action group: the presets themselves (`presets`), the columns a
//! table can show with the plan's locks (`columns`) and the filter presets' validation
//! (`filter_presets`); this module holds the preset as answered and how an id finds it.

mod columns;
mod filter_presets;
mod presets;

use searchdeck_common::{
    Db,
    report::Level,
    store::{self, presets::PresetRow},
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

pub use columns::{ColumnGroup, ColumnInfo, Lock, column_groups};
pub use filter_presets::validate_filter_presets;

use crate::{
    access::WorkspaceResource,
    error::{ApiError, ApiResult, FieldError},
    route,
    state::AppState,
};

/// Most presets a user saves per type and workspace, besides the built-in Default
/// (docs/product.md#9-tables-and-notifications).
pub const MAX_PRESETS: i64 = 10;
/// Longest preset name.
pub const MAX_NAME_CHARS: usize = 50;
/// Name of the built-in preset of every type.
pub const DEFAULT_NAME: &str = "Default";
/// Message of a save over [`MAX_PRESETS`] (docs/product.md#5-column-presets).
pub const LIMIT_REACHED: &str = "Preset limit reached. Delete presets to save more";
/// Message of a name already used by another preset of the type (docs/product.md#5-column-presets).
pub const NAME_TAKEN: &str = "A preset with this name already exists";
/// Message of a required value left empty.
pub const REQUIRED: &str = "Please complete this field to continue";
/// Message of a change to the built-in Default preset.
pub const DEFAULT_READ_ONLY: &str =
    "The Default preset cannot be changed; save your columns as a new preset";
/// Message of a delete of the built-in Default preset.
pub const DEFAULT_UNDELETABLE: &str = "The Default preset cannot be deleted";
/// Message of a Pro-locked (Conversions) column on the pro_limited plan
/// (docs/product.md#6-conversions-lock).
pub const PRO_LOCK_MESSAGE: &str = searchdeck_common::report::catalog::PRO_LOCK_MESSAGE;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(presets::default_fields))
        .routes(route!(presets::all_of_type))
        .routes(route!(columns::fields_of_type))
        .routes(route!(presets::create))
        .routes(route!(presets::update))
        .routes(route!(presets::remove))
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
