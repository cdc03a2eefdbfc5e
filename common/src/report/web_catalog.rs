//! The report catalog as the web app reads it: `frontend/src/api/report-catalog.json`,
//! written from [`catalog`](super::catalog) so that the browser's metric lists (the chart's
//! metrics, the filters', the rules' pickers) and column lists are never typed a second time.
//! The test below fails when the committed copy differs; `SEARCHDECK_UPDATE_OPENAPI=1` (the
//! variable that rewrites the OpenAPI copy) rewrites it too.

use serde_json::{Value, json};

use super::catalog::{
    COHORT_COLUMNS, COLUMN_GROUPS, CONVERSION_COLUMNS, GRAPH_METRICS, GROWTH_ONLY,
    HIDDEN_BY_DEFAULT, Kind, Level, Metric, PRO_LOCKED_GROUPS,
};

/// How the web app shows a metric: a count, money of the org's currency, a percentage (the
/// wire carries the fraction) or a plain decimal (IPM, installs per thousand impressions).
fn display(metric: Metric) -> &'static str {
    match metric.kind() {
        Kind::Count => "count",
        Kind::Money => "money",
        Kind::Ratio if metric == Metric::Ipm => "decimal",
        Kind::Ratio => "percent",
    }
}

/// The catalog document: metrics in the order of docs/product.md#2-tables (common ones first), the
/// graph metrics in the chart's order, and per level its columns, default columns and whether it
/// has search popularity.
pub fn document() -> Value {
    let metrics: Vec<Value> = Metric::ALL
        .iter()
        .map(|&m| {
            json!({
                "name": m.name(),
                "display": display(m),
                "counter": m.kind() == Kind::Count,
                "common": m.is_common(),
                "graph": GRAPH_METRICS.contains(&m),
            })
        })
        .collect();
    let levels: serde_json::Map<String, Value> = Level::ALL
        .iter()
        .map(|&l| {
            (
                l.name().to_owned(),
                json!({
                    "columns": l.all_columns(),
                    "defaultColumns": l.default_columns(),
                    "hasMetrics": l.has_metrics(),
                    "hasPopularity": l.has_popularity(),
                }),
            )
        })
        .collect();
    json!({
        "metrics": metrics,
        "graphMetrics": GRAPH_METRICS.iter().map(|m| m.name()).collect::<Vec<_>>(),
        "levels": levels,
        "columnGroups": COLUMN_GROUPS,
        "conversionColumns": CONVERSION_COLUMNS,
        "cohortColumns": COHORT_COLUMNS,
        // How each Conversions and Cohort column is shown (docs/api/attribution.md).
        "conversionMetrics": CONVERSION_COLUMNS
            .iter()
            .chain(&COHORT_COLUMNS)
            .map(|&c| json!({
                "name": c,
                "display": crate::attribution::conversions::display(c),
                "group": super::catalog::group_of(c),
            }))
            .collect::<Vec<_>>(),
        "hiddenByDefault": HIDDEN_BY_DEFAULT,
        "growthOnly": GROWTH_ONLY,
        "proLockedGroups": PRO_LOCKED_GROUPS,
    })
}

/// The document as committed: pretty-printed, with a final newline.
pub fn text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("the catalog serialises");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_web_apps_copy_of_the_catalog_is_current() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../frontend/src/api/report-catalog.json"
        );
        let doc = super::text();
        if std::env::var_os("SEARCHDECK_UPDATE_OPENAPI").is_some() {
            std::fs::write(path, &doc).expect("write the web app's copy of the catalog");
            return;
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == doc,
            "frontend/src/api/report-catalog.json is not the report catalog: run \
             `SEARCHDECK_UPDATE_OPENAPI=1 cargo nextest run -p searchdeck-common --lib web_catalog`"
        );
    }
}
