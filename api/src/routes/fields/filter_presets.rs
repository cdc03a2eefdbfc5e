//! The filter presets a user saves in `options/front` (docs/product.md#3-filter-and-filter-preset,
//! docs/product.md#5-filters filter validity): checked with the report engine's filter rules before
//! the option is stored.

use std::collections::HashSet;

use searchdeck_common::report::{self, Filter, FilterIn};
use serde_json::Value;

use super::{NAME_TAKEN, REQUIRED, level_of};
use crate::error::FieldError;

/// Validates the `optimization-filters-presets` option: a list of filter presets
/// `{name, type, filters}` (docs/product.md#3-filter-and-filter-preset): a name, a table type, a
/// list of filters (empty for a preset that clears them), each filter valid by the report engine's
/// rules ([`Filter::parse`], docs/product.md#5-filters: a non-empty value, a list without empty
/// entries, a condition where the filter has one). Errors name the path, e.g.
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
}
