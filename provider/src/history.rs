//! The wire types of Apple's change history (Apple Ads Platform API v1, "Change History"):
//! `POST /change-history/query` (operation `query_audit_summary`) takes an [`AuditQuery`]
//! and answers `AuditSummaryResponse` — one [`AuditSummary`] per (userType, modifiedBy,
//! transactionId, eventType, entityType) — and `GET /change-history/{detailId}` (operation
//! `get_change_details`, `limit` / `offset`) answers `ChangeDetailsResponse`: the
//! [`ChangeDetails`] of one changed entity with its field changes (`details[].changes[]`:
//! field, oldValues, newValues).
//!
//! Apple requires every query to filter `eventTime` (`BETWEEN`, `GREATER_THAN` or
//! `LESS_THAN`); other filterable fields take `EQUALS` or `IN`. A summary carries no
//! `detailId` unless the query sets `options.metadata` to `latest` or `snapshot`: then each
//! entry of its `metas` names one changed entity (`{"<EntityType>": "<entityId>",
//! "detailId": "<EntityType.entityId.txnId>", "meta": {…}}`), see [`AuditSummary::entities`].

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// `AuditOperator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AuditOperator {
    Equals,
    In,
    LessThan,
    LessThanOrEqualTo,
    GreaterThan,
    GreaterThanOrEqualTo,
    Between,
}

/// `AuditSortOrder`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AuditSortOrder {
    Asc,
    Desc,
}

/// `AuditEventType`; an unknown value reads as `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AuditEventType {
    Create,
    Update,
    Delete,
    #[serde(other)]
    Other,
}

impl AuditEventType {
    /// The wire name (`CREATE`, `UPDATE`, `DELETE`; `UPDATE` for an unknown one).
    pub fn as_str(self) -> &'static str {
        match self {
            AuditEventType::Create => "CREATE",
            AuditEventType::Delete => "DELETE",
            AuditEventType::Update | AuditEventType::Other => "UPDATE",
        }
    }
}

/// `AuditUserType`: who made a change — Apple's support staff, a person in Apple's UI
/// (`CUSTOMER`) or an API client (`CUSTOMER_API`); an unknown value reads as `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AuditUserType {
    AppleSupport,
    Customer,
    CustomerApi,
    #[serde(other)]
    Other,
}

/// `AuditFilter`: one condition; filters are combined with AND.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditFilter {
    /// `eventTime`, `entityType`, `entityId`, `eventType`, `userId`, `userType`, `txnId`,
    /// `adAccountId`, `campaignId`, `adGroupId`.
    pub field: String,
    pub operator: AuditOperator,
    /// A value, or an array of values (`BETWEEN`: two; `IN`: any number).
    pub value: Value,
}

impl AuditFilter {
    /// `field operator value`.
    pub fn new(field: &str, operator: AuditOperator, value: Value) -> Self {
        AuditFilter {
            field: field.to_string(),
            operator,
            value,
        }
    }
}

/// `AuditSorting`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditSorting {
    pub field: String,
    pub order: AuditSortOrder,
}

/// `Pagination` of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditPagination {
    pub offset: u64,
    pub page_size: u64,
}

/// `AuditQueryOptions` (key-value strings, as Apple has them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditQueryOptions {
    /// `"false"` skips the count (`totalCount` is then 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub need_totals: Option<String>,
    /// `UTC` (default) or `ORTZ` (the org's time zone) for `eventTime` filter values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// `none` (default), `latest` or `snapshot`: fills each summary's `metas` (with their
    /// `detailId`s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
}

/// `AuditQuery`: the body of `POST /change-history/query`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AuditQuery {
    pub filters: Vec<AuditFilter>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sorting: Vec<AuditSorting>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<AuditPagination>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<AuditQueryOptions>,
}

/// `null` and a missing field both read as the default.
fn nullable<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// `AuditSummary`: the entity changes of one type one actor made in one transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditSummary {
    #[serde(default)]
    pub transaction_id: Option<String>,
    #[serde(default)]
    pub event_type: Option<AuditEventType>,
    /// RFC 3339.
    #[serde(default)]
    pub event_time: Option<String>,
    /// `Campaign`, `AdGroup`, `Keyword`, `NegativeKeyword`, `Ad`, …
    #[serde(default)]
    pub entity_type: Option<String>,
    /// How many entity changes the row groups.
    #[serde(default)]
    pub count: Option<i64>,
    /// Per changed entity (only with `options.metadata`).
    #[serde(default, deserialize_with = "nullable")]
    pub metas: Vec<serde_json::Map<String, Value>>,
    #[serde(default)]
    pub user_type: Option<AuditUserType>,
    #[serde(default)]
    pub modified_by: Option<String>,
}

/// One changed entity of a summary's `metas`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntity {
    pub entity_id: Option<i64>,
    pub detail_id: String,
    pub meta: serde_json::Map<String, Value>,
}

impl AuditSummary {
    /// The changed entities its `metas` name, with their `detailId`s (entries without one
    /// are left out: the query did not ask for metadata).
    pub fn entities(&self) -> Vec<AuditEntity> {
        let kind = self.entity_type.as_deref().unwrap_or_default();
        self.metas
            .iter()
            .filter_map(|m| {
                let detail_id = m.get("detailId")?.as_str()?.to_string();
                let id = m.get(kind).or_else(|| m.get("entityId"));
                let entity_id = id.and_then(|v| {
                    v.as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                });
                let meta = match m.get("meta") {
                    Some(Value::Object(o)) => o.clone(),
                    _ => serde_json::Map::new(),
                };
                Some(AuditEntity {
                    entity_id,
                    detail_id,
                    meta,
                })
            })
            .collect()
    }
}

/// `ActivityDetailChangesInner`: one field's values before and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub old_values: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub new_values: Vec<String>,
}

/// `ActivityDetail`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityDetail {
    #[serde(default)]
    pub transaction_id: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub changes: Vec<FieldChange>,
}

/// `ChangeDetails`: one entity's change in one transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeDetails {
    #[serde(default)]
    pub transaction_id: Option<String>,
    #[serde(default)]
    pub detail_id: Option<String>,
    #[serde(default)]
    pub event_type: Option<AuditEventType>,
    #[serde(default)]
    pub entity_type: Option<String>,
    /// A string of digits.
    #[serde(default)]
    pub entity_id: Option<String>,
    #[serde(default)]
    pub event_time: Option<String>,
    #[serde(default)]
    pub user_type: Option<AuditUserType>,
    #[serde(default)]
    pub modified_by: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub entity_meta_data: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "nullable")]
    pub details: Vec<ActivityDetail>,
}

impl ChangeDetails {
    /// Every field change of its `details`.
    pub fn changes(&self) -> impl Iterator<Item = &FieldChange> {
        self.details.iter().flat_map(|d| d.changes.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_query_is_written_with_apples_names() {
        let q = AuditQuery {
            filters: vec![
                AuditFilter::new(
                    "eventTime",
                    AuditOperator::GreaterThan,
                    json!("2026-11-01T00:00:00.000Z"),
                ),
                AuditFilter::new("entityType", AuditOperator::In, json!(["Keyword"])),
            ],
            sorting: vec![AuditSorting {
                field: "eventTime".into(),
                order: AuditSortOrder::Asc,
            }],
            pagination: Some(AuditPagination {
                offset: 0,
                page_size: 100,
            }),
            options: Some(AuditQueryOptions {
                metadata: Some("snapshot".into()),
                ..Default::default()
            }),
        };
        assert_eq!(
            serde_json::to_value(&q).unwrap(),
            json!({
                "filters": [
                    {"field": "eventTime", "operator": "GREATER_THAN", "value": "2026-11-01T00:00:00.000Z"},
                    {"field": "entityType", "operator": "IN", "value": ["Keyword"]},
                ],
                "sorting": [{"field": "eventTime", "order": "ASC"}],
                "pagination": {"offset": 0, "pageSize": 100},
                "options": {"metadata": "snapshot"},
            })
        );
    }

    #[test]
    fn summaries_and_details_read_apples_answers() {
        let s: AuditSummary = serde_json::from_value(json!({
            "transactionId": "998877665", "eventType": "UPDATE",
            "eventTime": "2025-03-15T14:30:00.000Z", "entityType": "AdGroup", "count": 1,
            "metas": [{"AdGroup": "5512", "detailId": "AdGroup.5512.998877665", "meta": {"name": "Brand"}}],
            "userType": "CUSTOMER", "modifiedBy": "111222333",
        }))
        .unwrap();
        assert_eq!(s.user_type, Some(AuditUserType::Customer));
        assert_eq!(
            s.entities(),
            vec![AuditEntity {
                entity_id: Some(5512),
                detail_id: "AdGroup.5512.998877665".into(),
                meta: json!({"name": "Brand"}).as_object().unwrap().clone(),
            }]
        );
        let bare: AuditSummary = serde_json::from_value(
            json!({"transactionId": "1", "metas": null, "userType": "SOMEONE"}),
        )
        .unwrap();
        assert!(bare.entities().is_empty());
        assert_eq!(bare.user_type, Some(AuditUserType::Other));
        let d: ChangeDetails = serde_json::from_value(json!({
            "transactionId": "998877665", "detailId": "AdGroup.5512.998877665",
            "eventType": "UPDATE", "entityType": "AdGroup", "entityId": "5512",
            "eventTime": "2025-03-15T14:30:00.000Z", "userType": "CUSTOMER_API",
            "modifiedBy": "api-client", "entityMetaData": null,
            "details": [{"transactionId": "998877665", "changes": [
                {"field": "status", "oldValues": ["ENABLED"], "newValues": ["PAUSED"]},
                {"field": "name", "oldValues": null, "newValues": ["Brand"]},
            ]}],
        }))
        .unwrap();
        let changes: Vec<_> = d.changes().collect();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].old_values, vec!["ENABLED".to_string()]);
        assert!(changes[1].old_values.is_empty());
        assert_eq!(d.event_type.map(AuditEventType::as_str), Some("UPDATE"));
    }
}
