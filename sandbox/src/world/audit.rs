//! Change history: every write through the API records one event per entity it changed,
//! grouped by transaction (one request is one transaction), as `/change-history` serves them.

use std::collections::BTreeMap;

use serde_json::Value;
use time::OffsetDateTime;

use super::{Id, World};

/// One entity changed in one transaction.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AuditEvent {
    pub txn: String,
    /// Unique per event: `{txn}-{n}`.
    pub detail_id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub time: OffsetDateTime,
    pub ad_account_id: Id,
    /// CREATE, UPDATE or DELETE.
    #[serde(with = "super::statics::one")]
    pub event: super::statics::Name,
    /// Campaign, AdGroup, Keyword, NegativeKeyword, Ad, Creative.
    #[serde(with = "super::statics::one")]
    pub entity_type: super::statics::Name,
    pub entity_id: Id,
    pub campaign_id: Option<Id>,
    pub ad_group_id: Option<Id>,
    /// `(field, old values, new values)`.
    pub changes: Vec<(String, Vec<String>, Vec<String>)>,
    /// Name or text of the entity after the change.
    pub meta: BTreeMap<String, String>,
}

/// Fields that change on every write and are not reported as changes.
const IGNORED: &[&str] = &[
    "modificationTime",
    "creationTime",
    "systemStatus",
    "systemStatusReasons",
    "displayStatus",
    "id",
];

fn values(v: &Value) -> Vec<String> {
    match v {
        Value::Null => vec![],
        Value::Array(a) => a.iter().map(text).collect(),
        other => vec![text(other)],
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) if m.contains_key("amount") => {
            m["amount"].as_str().unwrap_or_default().to_string()
        }
        other => other.to_string(),
    }
}

impl World {
    /// Records, in the current transaction ([`World::begin_txn`]), the change of one entity from `before` (None for a create) to `after` (its
    /// rendered wire form). An update that changes nothing is not recorded.
    pub fn record(&mut self, entity_type: &'static str, before: Option<&Value>, after: &Value) {
        let empty = serde_json::Map::new();
        let old = before.and_then(Value::as_object).unwrap_or(&empty);
        let new = after.as_object().unwrap_or(&empty);
        let mut changes = Vec::new();
        for (field, value) in new {
            if IGNORED.contains(&field.as_str()) || old.get(field) == Some(value) {
                continue;
            }
            if before.is_none() && value.is_null() {
                continue;
            }
            let old_values = old.get(field).map(values).unwrap_or_default();
            changes.push((field.clone(), old_values, values(value)));
        }
        if before.is_some() && changes.is_empty() {
            return;
        }
        let event = match (before, after["deleted"].as_bool()) {
            (None, _) => "CREATE",
            (Some(b), Some(true)) if b["deleted"] != Value::Bool(true) => "DELETE",
            _ => "UPDATE",
        };
        let mut meta = BTreeMap::new();
        for key in ["name", "text"] {
            if let Some(v) = after[key].as_str() {
                meta.insert(key.to_string(), v.to_string());
            }
        }
        let txn = self.current_txn.clone();
        let n = self.audit.iter().rev().take_while(|e| e.txn == txn).count();
        let event = AuditEvent {
            txn: txn.clone(),
            detail_id: format!("{txn}-{}", n + 1),
            time: self.now,
            ad_account_id: after["adAccountId"].as_i64().unwrap_or_default(),
            event,
            entity_type,
            entity_id: after["id"].as_i64().unwrap_or_default(),
            campaign_id: after["campaignId"].as_i64(),
            ad_group_id: after["adGroupId"].as_i64(),
            changes,
            meta,
        };
        self.audit.push(event);
    }
}
