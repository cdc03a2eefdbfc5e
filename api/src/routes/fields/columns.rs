//! The columns a table type can show (`setFields/fields/{type}`), grouped as the
//! edit-columns modal groups them, each with the lock the workspace's plan puts on it
//! (docs/product.md#6-roles-and-permissions: Growth-only metrics, the Conversions group on
//! pro_limited).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    plan::Plan,
    report::{
        Level,
        catalog::{COLUMN_GROUPS, GROWTH_ONLY, HIDDEN_BY_DEFAULT, PRO_LOCKED_GROUPS, group_of},
    },
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{PRO_LOCK_MESSAGE, path_level};
use crate::{
    access::Member,
    envelope::{self, Envelope, Items},
    error::{ApiResult, ErrorBody},
    extract::ApiPath,
    state::AppState,
};

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
    } else if PRO_LOCKED_GROUPS.contains(&group_of(column)) && !plan.columns().conversions {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_groups_lock_by_plan() {
        let groups = column_groups(Level::Keywords, Plan::ProFree);
        let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["Attributes", "Metrics", "Conversions", "Cohort"]);
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
