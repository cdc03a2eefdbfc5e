//! Change history: every write records one event per entity it changed, grouped by
//! transaction (one request is one transaction), as `/change-history` serves them. Each
//! event names who made it ([`Actor`]): writes through the API are `CUSTOMER_API` by the
//! calling key's client id; writes through `/sandbox/ui/v1/…` (standing for Apple's own
//! UI) are `CUSTOMER` by the person the request names. Field changes are the entity's wire
//! fields, nested objects flattened to dotted paths (`bidStrategy.bid`, `cpaCap.value`,
//! `dailyBudget.value`) and a `Money` given by its amount.

use std::collections::BTreeMap;

use serde_json::Value;
use time::OffsetDateTime;

use super::{Id, World};

/// Who makes the writes of a request: `userType` and `modifiedBy` of its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// `CUSTOMER_API`, `CUSTOMER` or `APPLE_SUPPORT`.
    pub user_type: &'static str,
    pub modified_by: String,
}

impl Actor {
    /// An API client (`CUSTOMER_API`) by its client id.
    pub fn api(client_id: &str) -> Self {
        Actor {
            user_type: "CUSTOMER_API",
            modified_by: client_id.to_string(),
        }
    }

    /// A person in Apple's UI (`CUSTOMER`).
    pub fn ui(person: &str) -> Self {
        Actor {
            user_type: "CUSTOMER",
            modified_by: person.to_string(),
        }
    }
}

tokio::task_local! {
    /// The actor of the request being served (set around each request by the API's
    /// authentication and by the UI stand-in); writes outside one are the API user's.
    pub static ACTOR: Actor;
}

fn api_user() -> String {
    "CUSTOMER_API".into()
}

fn api_name() -> String {
    "api".into()
}

/// One entity changed in one transaction.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AuditEvent {
    pub txn: String,
    /// Apple's shape: `{EntityType}.{entityId}.{txn}`.
    pub detail_id: String,
    /// `CUSTOMER_API`, `CUSTOMER` or `APPLE_SUPPORT`.
    #[serde(default = "api_user")]
    pub user_type: String,
    /// The API key's client id, or the person in the UI.
    #[serde(default = "api_name")]
    pub modified_by: String,
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
    /// Name or text of the entity after the change, and its campaign and ad group ids.
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

/// Whether `v` is a wire `Money`.
fn is_money(v: &Value) -> bool {
    v.as_object().is_some_and(|m| m.contains_key("amount"))
}

/// The fields of `v` by dotted path: objects (but `Money`) are opened, other values are
/// leaves (null included, so a field set or cleared shows on one side).
fn flatten(prefix: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) if !is_money(v) && !prefix.is_empty() && !m.is_empty() => {
            for (k, x) in m {
                flatten(&format!("{prefix}.{k}"), x, out);
            }
        }
        Value::Object(m) if prefix.is_empty() => {
            for (k, x) in m {
                flatten(k, x, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
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
        let (mut old, mut new) = (BTreeMap::new(), BTreeMap::new());
        if let Some(b) = before {
            flatten("", b, &mut old);
        }
        flatten("", after, &mut new);
        let mut fields: Vec<&String> = old.keys().chain(new.keys()).collect();
        fields.sort_unstable();
        fields.dedup();
        let mut changes = Vec::new();
        for field in fields {
            let top = field.split('.').next().unwrap_or_default();
            if IGNORED.contains(&top) {
                continue;
            }
            let (o, n) = (
                old.get(field).unwrap_or(&Value::Null),
                new.get(field).unwrap_or(&Value::Null),
            );
            if o == n || (before.is_none() && n.is_null()) {
                continue;
            }
            changes.push((field.clone(), values(o), values(n)));
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
        for key in ["campaignId", "adGroupId"] {
            if let Some(v) = after[key].as_i64() {
                meta.insert(key.to_string(), v.to_string());
            }
        }
        let actor = ACTOR
            .try_with(Actor::clone)
            .unwrap_or_else(|_| Actor::api(&self.user_id.to_string()));
        let txn = self.current_txn.clone();
        let entity_id = after["id"].as_i64().unwrap_or_default();
        let event = AuditEvent {
            txn: txn.clone(),
            detail_id: format!("{entity_type}.{entity_id}.{txn}"),
            user_type: actor.user_type.to_string(),
            modified_by: actor.modified_by,
            time: self.now,
            ad_account_id: after["adAccountId"].as_i64().unwrap_or_default(),
            event,
            entity_type,
            entity_id,
            campaign_id: after["campaignId"].as_i64(),
            ad_group_id: after["adGroupId"].as_i64(),
            changes,
            meta,
        };
        self.audit.push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_fields_are_dotted_and_money_is_its_amount() {
        let mut out = BTreeMap::new();
        flatten(
            "",
            &json!({"bidStrategy": {"bid": {"amount": "1.5", "currency": "USD"}, "bidStrategyType": "MANUAL_CPT"},
                    "cpaCap": null, "status": "ENABLED"}),
            &mut out,
        );
        assert_eq!(
            out.keys().collect::<Vec<_>>(),
            [
                "bidStrategy.bid",
                "bidStrategy.bidStrategyType",
                "cpaCap",
                "status"
            ]
        );
        assert_eq!(values(&out["bidStrategy.bid"]), ["1.5"]);
        assert!(values(&out["cpaCap"]).is_empty());
    }
}
