//! The layers inside `common/`: each crate's manifest names only the workspace crates below
//! it.

use std::{collections::BTreeSet, fs};

use crate::root;

/// The layers inside `common/` (docs/architecture.md "The layers"), lowest first: (crate
/// folder, the workspace crates it may depend on). What a lower layer may not know, the
/// crate graph then refuses to compile: the stores cannot name an engine, a job or a route,
/// and money or ids cannot name a store.
const LAYERS: &[(&str, &[&str])] = &[
    ("common/infra", &[]),
    ("common/model", &[]),
    ("common/attribution", &["searchdeck-model"]),
    ("common/db", &["searchdeck-infra", "searchdeck-model"]),
    (
        "common",
        &[
            "searchdeck-infra",
            "searchdeck-model",
            "searchdeck-db",
            "searchdeck-attribution",
        ],
    ),
];

/// The workspace crates a manifest's `[dependencies]` name (`searchdeck-…`).
fn workspace_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut section = "";
    let mut found = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" && line.starts_with("searchdeck-") {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            found.insert(name.to_string());
        }
    }
    found
}

#[test]
fn the_layers_of_common_depend_only_downwards() {
    let mut problems = Vec::new();
    for (folder, allowed) in LAYERS {
        let manifest = fs::read_to_string(root().join(folder).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{folder}/Cargo.toml: {e}"));
        for dep in workspace_dependencies(&manifest) {
            if !allowed.contains(&dep.as_str()) {
                problems.push(format!(
                    "{folder} depends on {dep}, a layer above it or beside it"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let db = workspace_dependencies(
        "[dependencies]\nsearchdeck-model.workspace = true\nsearchdeck-common = { path = \"..\" }\n\n[dev-dependencies]\nsearchdeck-api.workspace = true\n",
    );
    assert_eq!(
        db,
        BTreeSet::from([
            "searchdeck-model".to_string(),
            "searchdeck-common".to_string()
        ]),
        "the reader reads both spellings and only [dependencies]"
    );
}
