//! Members of a JSON body that its operation does not know are refused: a mistyped
//! `numberOfCopie: 5` answers 400 on `numberOfCopie` instead of making one copy. The rule is
//! read from the OpenAPI document itself — every object of a request body is closed there
//! (`additionalProperties: false`, set once by [`crate::openapi`]) — so what the document
//! says and what the extractor ([`crate::extract::ApiJson`]) refuses are one thing.
//!
//! The walk follows the body's schema: `$ref`s, properties, array items, maps
//! (`additionalProperties` as a schema), the branch of a `oneOf`/`anyOf` the value fits best
//! (a tagged variant by its tag), and the parts of an `allOf` (open: their members are
//! checked inside, not counted unknown).
//!
//! The same walk names the path of a whole number the document's integer cannot hold
//! (`window.days: 9223372036854775808`, `hour: 1.5`): serde reads a tagged variant from a
//! buffered copy and would name only the variant (`window`).

use std::sync::OnceLock;

use serde_json::Value;

use crate::error::FieldError;

/// Message of a member the body's operation does not have.
pub const UNKNOWN_FIELD: &str = "Unknown field: this request does not take it";

/// Deepest nesting followed (a body deeper than this is checked down to it).
const DEPTH_MAX: usize = 64;

fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| serde_json::to_value(crate::openapi_document()).unwrap_or(Value::Null))
}

/// The members of `body` that the request body of operation `method` (lower case) `path`
/// (the route's template, `/api/rules/user/{id}/run`) does not have, as field errors.
pub fn refusals(method: &str, path: &str, body: &Value) -> Vec<FieldError> {
    let doc = document();
    let pointer = format!(
        "/paths/{}/{method}/requestBody/content/application~1json/schema",
        path.replace('~', "~0").replace('/', "~1")
    );
    let Some(schema) = doc.pointer(&pointer) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk(doc, schema, body, "", &mut out, 0);
    out
}

/// Message of a number that is not whole where the document's integer is.
pub const NOT_WHOLE: &str = "Must be a whole number";

/// Why `value` does not fit the integer `schema` (by its `format`: `int32` holds what
/// `i32` and `u32` hold, `int64` what `i64` and `u64` hold), if it is an integer schema.
fn integer_misfit(schema: &Value, value: &Value) -> Option<&'static str> {
    let integer = match schema.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    let Value::Number(n) = value else {
        return None;
    };
    if !integer {
        return None;
    }
    let (low, high) = match schema.get("format").and_then(Value::as_str) {
        Some("int32") => (i64::from(i32::MIN), i64::from(u32::MAX)),
        _ => (i64::MIN, i64::MAX),
    };
    if let Some(i) = n.as_i64() {
        return (i < low || i > high).then_some(crate::input::NUMBER_OUT_OF_RANGE);
    }
    if n.as_u64().is_some() {
        // Above i64::MAX: only a u64 holds it.
        return (schema.get("format").and_then(Value::as_str) == Some("int32"))
            .then_some(crate::input::NUMBER_OUT_OF_RANGE);
    }
    // Written with a fraction or an exponent: `345.0` is that integer (docs/api/input.md),
    // `1.5` is no integer.
    match n.as_f64() {
        Some(f) if f.fract() != 0.0 => Some(NOT_WHOLE),
        Some(f) if f < low as f64 || f > high as f64 => Some(crate::input::NUMBER_OUT_OF_RANGE),
        _ => None,
    }
}

/// Message of a query parameter the operation does not have.
pub const UNKNOWN_PARAMETER: &str = "Unknown parameter: this request does not take it";

/// The query parameters among `names` that operation `method` `path` does not document, as
/// field errors; nothing when the operation is not in the document.
pub fn unknown_parameters<'a>(
    method: &str,
    path: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Vec<FieldError> {
    let pointer = format!(
        "/paths/{}/{method}",
        path.replace('~', "~0").replace('/', "~1")
    );
    let Some(op) = document().pointer(&pointer) else {
        return Vec::new();
    };
    let known: Vec<&str> = op
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("in").and_then(Value::as_str) == Some("query"))
        .filter_map(|p| p.get("name").and_then(Value::as_str))
        .collect();
    names
        .into_iter()
        .filter(|n| !known.contains(n))
        .map(|n| FieldError::new(n, UNKNOWN_PARAMETER))
        .collect()
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `schema` with its `$ref` followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    let mut s = schema;
    for _ in 0..DEPTH_MAX {
        match s
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|p| doc.pointer(p))
        {
            Some(next) => s = next,
            None => break,
        }
    }
    s
}

/// Whether `value` names another variant than `schema`'s: a property of `schema` allows
/// one value only (`enum: [x]` or `const`) and `value` holds another there.
fn other_variant(doc: &Value, schema: &Value, value: &Value) -> bool {
    let (Some(props), Some(obj)) = (schema.get("properties"), value.as_object()) else {
        return false;
    };
    props.as_object().into_iter().flatten().any(|(key, prop)| {
        let prop = resolve(doc, prop);
        let only = prop
            .get("const")
            .cloned()
            .or_else(|| match prop.get("enum") {
                Some(Value::Array(one)) if one.len() == 1 => Some(one[0].clone()),
                _ => None,
            });
        matches!((only, obj.get(key)), (Some(tag), Some(v)) if *v != tag)
    })
}

fn walk(
    doc: &Value,
    schema: &Value,
    value: &Value,
    path: &str,
    out: &mut Vec<FieldError>,
    depth: usize,
) {
    if depth > DEPTH_MAX {
        return;
    }
    let schema = resolve(doc, schema);
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            if value.is_null() {
                return;
            }
            let mut best: Option<Vec<FieldError>> = None;
            for branch in branches {
                let branch = resolve(doc, branch);
                if branch.get("type") == Some(&Value::String("null".into()))
                    || other_variant(doc, branch, value)
                {
                    continue;
                }
                let mut found = Vec::new();
                walk(doc, branch, value, path, &mut found, depth + 1);
                if best.as_ref().is_none_or(|b| found.len() < b.len()) {
                    best = Some(found);
                }
            }
            out.extend(best.unwrap_or_default());
            return;
        }
    }
    if let Some(Value::Array(parts)) = schema.get("allOf") {
        // A flattened type: each member is checked against the part that has it.
        if let Some(obj) = value.as_object() {
            for (k, v) in obj {
                let part = parts.iter().map(|p| resolve(doc, p)).find_map(|p| {
                    p.pointer(&format!(
                        "/properties/{}",
                        k.replace('~', "~0").replace('/', "~1")
                    ))
                });
                if let Some(prop) = part {
                    walk(doc, prop, v, &join(path, k), out, depth + 1);
                }
            }
        }
        return;
    }
    match value {
        Value::Object(obj) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let extra = schema.get("additionalProperties");
            for (k, v) in obj {
                let at = join(path, k);
                match (props.and_then(|p| p.get(k)), extra) {
                    (Some(prop), _) => walk(doc, prop, v, &at, out, depth + 1),
                    (None, Some(Value::Bool(false))) => {
                        out.push(FieldError::new(at, UNKNOWN_FIELD));
                    }
                    (None, Some(map @ Value::Object(_))) => walk(doc, map, v, &at, out, depth + 1),
                    (None, _) => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    walk(doc, item, v, &join(path, &i.to_string()), out, depth + 1);
                }
            }
        }
        _ => {
            if let Some(message) = integer_misfit(schema, value) {
                out.push(FieldError::new(path, message));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fields(method: &str, path: &str, body: Value) -> Vec<String> {
        refusals(method, path, &body)
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn a_mistyped_member_is_named_where_it_is() {
        assert_eq!(
            fields(
                "put",
                "/api/asa/campaigns/copy",
                json!({"campaigns": ["1"], "numberOfCopie": 5})
            ),
            ["numberOfCopie"]
        );
        assert!(
            fields(
                "put",
                "/api/asa/campaigns/copy",
                json!({"campaigns": ["1"], "numberOfCopies": 5})
            )
            .is_empty()
        );
        // Inside a tagged variant (an action of a rule) and a nested object.
        let rule = json!({
            "name": "R", "accountId": "a", "orgId": "1", "level": "KEYWORDS",
            "conditions": {"operator": "AND", "groups": []},
            "window": {"type": "last", "days": 7}, "frequency": {"type": "daily", "hour": 6},
            "actions": [{"type": "changeBid", "by": "PERCENT", "value": "10", "vlaue": "1"}],
            "guardrails": {"maxEntitie": 5}
        });
        let mut found = fields("post", "/api/rules/preview", json!({"rule": rule}));
        found.sort();
        assert_eq!(
            found,
            ["rule.actions.0.vlaue", "rule.guardrails.maxEntitie"]
        );
        // The server's own fields of a rule sent back as read are known.
        let mut back = rule.clone();
        back["actions"][0].as_object_mut().unwrap().remove("vlaue");
        back["guardrails"] = json!({});
        back["id"] = json!("01J");
        back["createdAt"] = json!(1);
        back["lastRun"] = Value::Null;
        assert!(fields("post", "/api/rules/preview", json!({"rule": back})).is_empty());
        // An operation without a body, or unknown: nothing to say.
        assert!(fields("get", "/api/nothing", json!({"x": 1})).is_empty());
    }

    #[test]
    fn a_whole_number_its_integer_cannot_hold_is_named_where_it_is() {
        let refused = |body: Value| -> Vec<(String, String)> {
            refusals("post", "/api/rules/preview", &json!({ "rule": body }))
                .into_iter()
                .map(|e| (e.field, e.message))
                .collect()
        };
        let rule = |window: Value, frequency: Value| {
            json!({
                "name": "R", "accountId": "a", "orgId": "1", "level": "KEYWORDS",
                "conditions": {"operator": "AND", "groups": []},
                "window": window, "frequency": frequency,
                "actions": [{"type": "pause"}],
            })
        };
        let daily = json!({"type": "daily", "hour": 6});
        let last = |days: Value| json!({"type": "last", "days": days});
        let only = |field: &str, message: &str| vec![(field.to_string(), message.to_string())];
        let out_of_range = only("rule.window.days", crate::input::NUMBER_OUT_OF_RANGE);
        // Inside the tagged variant, where serde would name only `rule.window`.
        for days in [
            json!(9223372036854775808u64),
            json!(4294967296u64),
            json!(5e9),
        ] {
            assert_eq!(refused(rule(last(days), daily.clone())), out_of_range);
        }
        assert_eq!(
            refused(rule(last(json!(7)), json!({"type": "daily", "hour": 1.5}))),
            only("rule.frequency.hour", NOT_WHOLE)
        );
        // What an integer holds passes here (its range is the rule's own check), `7.0` too.
        assert!(refused(rule(last(json!(400)), daily.clone())).is_empty());
        assert!(refused(rule(last(json!(7.0)), daily)).is_empty());
    }

    #[test]
    fn query_parameters_are_those_documented() {
        let unknown = |names: &[&str]| -> Vec<String> {
            unknown_parameters("get", "/api/asa/apps", names.iter().copied())
                .into_iter()
                .map(|e| e.field)
                .collect()
        };
        assert!(unknown(&["accountId", "orgId"]).is_empty());
        assert_eq!(unknown(&["accountId", "orgID"]), ["orgID"]);
        // The guard's accountId is documented required where the guard reads it.
        let op = document().pointer("/paths/~1api~1asa~1apps/get").unwrap();
        let account = op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "accountId")
            .unwrap();
        assert_eq!(account["required"], true);
    }
}
