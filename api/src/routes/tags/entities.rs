//! The synced entities a tag request names (`{accountId, orgId, id}`): each resolved to its
//! campaign group within the caller's workspace and checked to exist at the tag's level, or
//! the request answers 404 before anything is written.

use std::collections::HashMap;

use searchdeck_common::store;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::ITEMS_MAX;
use crate::{
    domain::REQUIRED,
    error::{ApiError, ApiResult},
    state::AppState,
};

/// A synced entity: account, campaign group and Apple id (number or string).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntityRef {
    #[schema(required = true, nullable = false, min_length = 1)]
    pub account_id: Option<String>,
    /// The campaign group's id (a string of digits; a JSON integer is accepted too).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub org_id: Option<Value>,
    /// The entity's Apple id (campaign, ad group or keyword id, or the search term's id).
    #[schema(value_type = searchdeck_common::ids::AppleId, required = true)]
    pub id: Option<Value>,
}

/// An id sent as a JSON integer or a string of digits.
pub(super) fn id_of(value: Option<&Value>) -> Option<i64> {
    searchdeck_common::ids::string_id::parse(value?)
}

/// The 404 name of entities of `level`.
fn entity_name(level: i64) -> &'static str {
    match level {
        1 => "Campaign",
        2 => "Ad group",
        3 => "Keyword",
        _ => "Search term",
    }
}

/// A link whose campaign group was removed (its connection deleted) between the check and
/// the write is a 404 like any unknown entity.
pub(super) fn gone(err: sqlx::Error, level: i64) -> ApiError {
    match &err {
        sqlx::Error::Database(e) if e.is_foreign_key_violation() => {
            ApiError::not_found(entity_name(level))
        }
        _ => err.into(),
    }
}

/// The `(org_key, entity id)` of every item, all of the caller's workspace and of `level`;
/// the first one that is not answers 404 (a malformed one 400 with its field).
pub(super) async fn resolve(
    state: &AppState,
    workspace_id: &str,
    level: i64,
    items: &[EntityRef],
    field: &str,
) -> ApiResult<Vec<(i64, i64)>> {
    if items.len() > ITEMS_MAX {
        return Err(ApiError::field(
            field,
            &format!("At most {ITEMS_MAX} items per request"),
        ));
    }
    let what = entity_name(level);
    let mut keys: HashMap<(String, i64), Option<i64>> = HashMap::new();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let account = item
            .account_id
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| ApiError::field(&format!("{field}.{i}.accountId"), REQUIRED))?;
        let org = id_of(item.org_id.as_ref()).ok_or_else(|| {
            ApiError::field(
                &format!("{field}.{i}.orgId"),
                "A campaign group id is required",
            )
        })?;
        let id = id_of(item.id.as_ref()).ok_or_else(|| {
            ApiError::field(&format!("{field}.{i}.id"), "An entity id is required")
        })?;
        let cache_key = (account.to_string(), org);
        let key = match keys.get(&cache_key) {
            Some(k) => *k,
            None => {
                let k = store::catalog::org_key(&state.db.pool, workspace_id, account, org).await?;
                keys.insert(cache_key, k);
                k
            }
        };
        let Some(key) = key else {
            return Err(ApiError::not_found(what));
        };
        out.push((key, id));
    }
    // One query per campaign group for all its ids.
    let mut by_key: HashMap<i64, Vec<i64>> = HashMap::new();
    for (key, id) in &out {
        by_key.entry(*key).or_default().push(*id);
    }
    for (key, ids) in by_key {
        let found = store::tags::existing(&state.db.pool, key, level, &ids).await?;
        if ids.iter().any(|id| !found.contains(id)) {
            return Err(ApiError::not_found(what));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ids_are_numbers_or_digit_strings() {
        assert_eq!(id_of(Some(&json!(7))), Some(7));
        assert_eq!(
            id_of(Some(&json!(" 9007199254740993 "))),
            Some(9_007_199_254_740_993)
        );
        assert_eq!(id_of(Some(&json!("seven"))), None);
        assert_eq!(id_of(Some(&json!(1.5))), None);
        assert_eq!(id_of(Some(&json!(null))), None);
        assert_eq!(id_of(None), None);
    }
}
