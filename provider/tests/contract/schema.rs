//! Validates response bodies against the reference OpenAPI document: finds the operation
//! by method and concrete path, and checks the body with a JSON Schema validator. Object
//! schemas are closed (`additionalProperties: false`) here so the sandbox cannot invent
//! fields the reference lacks.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::Value;

pub struct Reference {
    doc: Value,
    cache: Mutex<HashMap<String, jsonschema::Validator>>,
}

fn close_objects(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("type") == Some(&Value::String("object".into()))
                && m.contains_key("properties")
                && !m.contains_key("additionalProperties")
            {
                m.insert("additionalProperties".into(), Value::Bool(false));
            }
            m.values_mut().for_each(close_objects);
        }
        Value::Array(a) => a.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// The reference document: `SEARCHDECK_REFERENCE` if set, else the first
/// `shared/reference/apple-ads-platform-v1.openapi.json` above the crate (the repository's
/// parent in a checkout, one level further up in a worktree).
fn reference_path() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("SEARCHDECK_REFERENCE") {
        return p.into();
    }
    let file = "shared/reference/apple-ads-platform-v1.openapi.json";
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .map(|dir| dir.join(file))
        .find(|p| p.exists())
        .unwrap_or_else(|| crate_dir.join("../..").join(file))
}

impl Reference {
    pub fn load() -> Self {
        let path = reference_path();
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let mut doc: Value = serde_json::from_str(&text).expect("reference JSON");
        close_objects(&mut doc["components"]);
        Reference {
            doc,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The reference path template matching a concrete path like `/campaigns/123`.
    fn template(&self, path: &str) -> Option<String> {
        let parts: Vec<&str> = path
            .split('?')
            .next()?
            .trim_matches('/')
            .split('/')
            .collect();
        self.doc["paths"]
            .as_object()?
            .keys()
            .find(|t| {
                let tp: Vec<&str> = t.trim_matches('/').split('/').collect();
                tp.len() == parts.len()
                    && tp
                        .iter()
                        .zip(&parts)
                        .all(|(a, b)| a == b || a.starts_with('{'))
            })
            .cloned()
    }

    /// Validates `body` of a `status` answer to `method path`; panics with the errors.
    pub fn check(&self, method: &str, path: &str, status: u16, body: &Value) {
        let template = self
            .template(path)
            .unwrap_or_else(|| panic!("{path} is not in the reference"));
        let op = &self.doc["paths"][&template][method.to_lowercase()];
        assert!(
            op.is_object(),
            "{method} {template} is not in the reference"
        );
        let schema_ref =
            op["responses"][status.to_string()]["content"]["application/json"]["schema"]["$ref"]
                .as_str()
                .unwrap_or_else(|| {
                    panic!("{method} {template} has no {status} response in the reference")
                })
                .to_string();
        let mut cache = self.cache.lock().unwrap();
        let validator = cache.entry(schema_ref.clone()).or_insert_with(|| {
            let root = serde_json::json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$ref": schema_ref,
                "components": self.doc["components"],
            });
            jsonschema::validator_for(&root).expect("reference schema compiles")
        });
        let errors: Vec<String> = validator
            .iter_errors(body)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .take(5)
            .collect();
        assert!(
            errors.is_empty(),
            "{method} {path} -> {status}: body does not match {schema_ref}: {errors:#?}\nbody: {body}"
        );
    }
}
