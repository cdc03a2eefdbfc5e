//! The shape of the code, checked on every `make test` (docs/architecture.md "The layers"):
//!
//! - **No import circle** in any crate: at every level of the module tree, the children of
//!   one module import each other one way only (a module and its own descendants may use
//!   each other both ways, as Rust modules do). Only the listed circles of the sandbox, a
//!   stand-in for Apple rather than the product, remain; a new circle, or a listed one that
//!   is gone, fails.
//! - **Layers that depend downwards only** ([`LAYERS`]): inside `common/`, infra and model
//!   at the bottom, the database layer (`common/db`) above them, the engines, jobs and queue
//!   (`common`) on top; the crate graph then refuses an upward import.
//! - **No forbidden arrow** ([`FORBIDDEN`]): the database handle knows no store, the report
//!   engine no plan or rule, the OpenAPI schemas and the API's framework modules no route,
//!   no job another job.
//! - **A file-size budget** over the Rust and TypeScript sources: over [`WARN_LINES`] is
//!   listed, over [`MAX_LINES`] fails unless [`LARGE_FILES`] names the file with a reason,
//!   and the number of files over [`SPLIT_LINES`] may only go down ([`MAX_OVER_SPLIT`]).
//!
//! Imports are read from the source text: `use` trees and inline `crate::`, `super::` and
//! `self::` paths outside comments and outside a file's closing `#[cfg(test)] mod tests`.
//! Other crates are the crate graph's business (Cargo refuses a circle between crates).

mod layers;
mod reader;
mod sizes;

use std::{collections::BTreeSet, fs, path::PathBuf};

use reader::{Graph, circles, graph_of, sibling_arrows, split, starts_with};

/// The crates whose modules are checked: (name, source folder).
const CRATES: [(&str, &str); 12] = [
    ("searchdeck", "src"),
    ("api", "api/src"),
    ("common", "common/src"),
    ("infra", "common/infra/src"),
    ("model", "common/model/src"),
    ("attribution", "common/attribution/src"),
    ("db", "common/db/src"),
    ("workers", "workers/src"),
    ("scheduler", "scheduler/src"),
    ("provider", "provider/src"),
    ("sandbox", "sandbox/src"),
    ("bench", "bench/src"),
];

/// Arrows that must never exist: (crate, from module, to modules, why). A module path
/// covers its descendants; `*` as the second segment of `from` stands for each child of the
/// first segment, which may not import any other child of it.
const FORBIDDEN: &[(&str, &str, &[&str], &str)] = &[
    (
        "db",
        "db",
        &["store", "stored_credentials"],
        "the database handle holds pools and the backend only",
    ),
    (
        "common",
        "report",
        &["plan", "rules", "engines"],
        "the report engine obeys what the plan grants (ColumnAccess) and knows no rule",
    ),
    (
        "api",
        "schemas",
        &["routes"],
        "the OpenAPI schemas are read by routes, never the other way",
    ),
    (
        "api",
        "state",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "api",
        "extract",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "api",
        "access",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "api",
        "error",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "api",
        "envelope",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "api",
        "session",
        &["routes"],
        "the framework modules know no route",
    ),
    (
        "workers",
        "jobs::*",
        &["jobs::*"],
        "no job imports another: what jobs share lives in wire, apply or the runtime",
    ),
];

/// The sandbox's remaining circle (crate, parent module, its children in the circle,
/// sorted): its state holds the auth store, the fault settings, the journal and the API's
/// report cache, whose handlers take that state. To go next, by splitting each into a store
/// below the state and handlers above it; nothing of the product is in a circle.
const KNOWN_CIRCLES: &[(&str, &str, &[&str])] = &[(
    "sandbox",
    "",
    &["api", "auth", "faults", "journal", "state"],
)];

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The forbidden arrows of `crate_name` found in `g`, as messages.
fn forbidden_arrows(crate_name: &str, g: &Graph) -> Vec<String> {
    let mut found = Vec::new();
    for (krate, from, to, why) in FORBIDDEN.iter().filter(|f| f.0 == crate_name) {
        for (a, targets) in &g.edges {
            for b in targets {
                let hit = match from.strip_suffix("::*") {
                    // Each child of `parent` may not import another child of it.
                    Some(parent) => {
                        let p = split(parent);
                        starts_with(a, &p)
                            && starts_with(b, &p)
                            && a.len() > p.len()
                            && b.len() > p.len()
                            && a[p.len()] != b[p.len()]
                    }
                    None => {
                        starts_with(a, &split(from)) && to.iter().any(|t| starts_with(b, &split(t)))
                    }
                };
                if hit {
                    found.push(format!(
                        "{krate}: {} -> {} ({why})",
                        a.join("::"),
                        b.join("::")
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn modules_import_each_other_one_way_and_never_across_a_forbidden_arrow() {
    let mut problems = Vec::new();
    let mut known: BTreeSet<(String, String, Vec<String>)> = KNOWN_CIRCLES
        .iter()
        .map(|(c, p, set)| {
            (
                c.to_string(),
                p.to_string(),
                set.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    let mut counted = 0;
    for (name, src) in CRATES {
        let g = graph_of(&root().join(src));
        assert!(
            g.modules.len() > 1 || name == "scheduler",
            "{name}: no modules read under {src}"
        );
        counted += g.modules.len();
        let siblings = sibling_arrows(&g);
        for (parent, set) in circles(&siblings) {
            if !known.remove(&(name.to_string(), parent.clone(), set.clone())) {
                let arrows: Vec<String> = siblings
                    .iter()
                    .filter(|(p, a, b)| {
                        p.join("::") == parent && set.contains(a) && set.contains(b)
                    })
                    .map(|(_, a, b)| format!("{a} -> {b}"))
                    .collect();
                problems.push(format!(
                    "{name}: import circle under `{}`: {}",
                    if parent.is_empty() {
                        "the crate root"
                    } else {
                        &parent
                    },
                    arrows.join(", ")
                ));
            }
        }
        problems.extend(forbidden_arrows(name, &g));
    }
    for (c, p, set) in known {
        problems.push(format!(
            "{c}: the listed circle under `{p}` ({}) is gone: take it off KNOWN_CIRCLES",
            set.join(", ")
        ));
    }
    assert!(counted > 300, "only {counted} modules read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The reader itself: a deliberate circle and a forbidden arrow are found.
#[test]
fn the_reader_finds_a_circle_and_a_forbidden_arrow() {
    let dir = std::env::temp_dir().join(format!("architecture-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("store")).unwrap();
    fs::write(
        src.join("lib.rs"),
        "pub mod db;\npub mod plan;\npub mod store;\npub mod report;\n",
    )
    .unwrap();
    fs::write(
        src.join("db.rs"),
        "// crate::report is only a comment\npub struct Db;\n",
    )
    .unwrap();
    fs::write(
        src.join("store/mod.rs"),
        "pub mod b;\npub mod cases;\nuse crate::{db::Db, report::{self, X}};\n",
    )
    .unwrap();
    fs::write(src.join("store/cases.rs"), "pub fn f() { super::b::g() }\n").unwrap();
    // An alias, of a module whose name holds "as".
    fs::write(
        src.join("store/b.rs"),
        "use super::cases as first;\npub fn g() {}\n",
    )
    .unwrap();
    fs::write(
        src.join("report.rs"),
        "pub struct X;\nfn s(_: crate::store::cases::T) {}\nuse crate::plan::Plan;\n",
    )
    .unwrap();
    fs::write(src.join("plan.rs"), "pub struct Plan;\n").unwrap();
    let g = graph_of(&src);
    let found = circles(&sibling_arrows(&g));
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        BTreeSet::from([
            (
                String::new(),
                vec!["report".to_string(), "store".to_string()]
            ),
            (
                "store".to_string(),
                vec!["b".to_string(), "cases".to_string()]
            ),
        ])
    );
    assert!(
        g.edges.get(&split("db")).is_none_or(|t| t.is_empty()),
        "comments are not imports"
    );
    let messages = forbidden_arrows("common", &g);
    assert_eq!(
        messages,
        [
            "common: report -> plan (the report engine obeys what the plan grants (ColumnAccess) and knows no rule)"
        ]
    );
}
