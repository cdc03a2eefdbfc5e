//! The two migration folders stay one schema.
//!
//! `migrations/sqlite` and `migrations/postgres` must hold the same file names, and each
//! PostgreSQL file must equal its SQLite twin once the SQLite text is put through the
//! documented dialect rewrites below (whole words, case-sensitive) and both texts have
//! their comments dropped and whitespace collapsed. Any other difference fails: a change
//! made to one folder only, or a dialect difference nobody wrote down here.

use std::{collections::BTreeSet, fs, path::Path};

/// SQLite spelling → PostgreSQL spelling, for the constructs whose syntax differs.
const DIALECT: &[(&str, &str)] = &[
    // Binary columns.
    ("BLOB", "BYTEA"),
    // Floating point (never for money).
    ("REAL", "DOUBLE PRECISION"),
    // Auto-numbered keys.
    ("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY"),
    // Tables stored in their primary key's order (SQLite) / packed full (PostgreSQL has no
    // clustered tables; the report sums are written in key order and never updated in place).
    ("WITHOUT ROWID", "WITH (fillfactor = 100)"),
];

fn folder(backend: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("db/migrations")
        .join(backend)
}

fn names(backend: &str) -> BTreeSet<String> {
    fs::read_dir(folder(backend))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Comments dropped, whitespace collapsed to single spaces.
fn normalise(sql: &str) -> String {
    sql.lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Replaces whole-word occurrences of `from` by `to`.
fn replace_words(text: &str, from: &str, to: &str) -> String {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(is_word) || after.is_some_and(is_word) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The SQLite text as PostgreSQL would spell it.
fn to_postgres(sqlite: &str) -> String {
    let mut sql = normalise(sqlite);
    for (from, to) in DIALECT {
        sql = replace_words(&sql, from, to);
    }
    sql
}

#[test]
fn both_folders_hold_the_same_migrations() {
    let (sqlite, postgres) = (names("sqlite"), names("postgres"));
    assert!(!sqlite.is_empty());
    assert_eq!(
        sqlite, postgres,
        "the migration folders differ in file names"
    );
}

#[test]
fn each_pair_is_the_same_sql_modulo_the_documented_dialect() {
    for name in names("sqlite") {
        let sqlite = fs::read_to_string(folder("sqlite").join(&name)).unwrap();
        let Ok(postgres) = fs::read_to_string(folder("postgres").join(&name)) else {
            continue; // reported by the file-name test
        };
        let (expected, actual) = (to_postgres(&sqlite), normalise(&postgres));
        if expected != actual {
            let at = expected
                .chars()
                .zip(actual.chars())
                .take_while(|(a, b)| a == b)
                .count();
            let from = expected[..at].rfind(' ').unwrap_or(0);
            panic!(
                "{name}: the folders differ beyond the documented dialect near:\n  sqlite as postgres: …{}\n  postgres:           …{}",
                &expected[from..(at + 60).min(expected.len())],
                &actual[from..(at + 60).min(actual.len())]
            );
        }
    }
}

#[test]
fn the_comparison_catches_drift_and_allows_the_dialect() {
    let sqlite = "-- ids\nCREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, b BLOB, r REAL, blobby TEXT);";
    let postgres = "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, b BYTEA, r DOUBLE PRECISION, blobby TEXT); -- same";
    assert_eq!(to_postgres(sqlite), normalise(postgres));
    assert_ne!(
        to_postgres(sqlite),
        normalise(&postgres.replace("TEXT", "VARCHAR"))
    );
    assert_ne!(
        to_postgres("CREATE INDEX i ON t (a);"),
        normalise("CREATE INDEX i ON t (a, b);")
    );
}
