//! Automated rules and their runs as resources of the caller's workspace (path `{id}` of
//! `rules/user/{id}…` and `rules/runs/{id}…`): another workspace's id answers 404 exactly
//! like a missing one.

use searchdeck_common::{
    Db,
    store::{self, rule_runs::RunRow, rules::RuleRow},
};

use super::WorkspaceResource;

/// A rule of the caller's workspace.
#[derive(Debug)]
pub struct StoredRule(pub RuleRow);

impl WorkspaceResource for StoredRule {
    const NAME: &'static str = "Rule";
    const KIND: &'static str = "rule";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(store::rules::get(&db.pool, workspace_id, id)
            .await?
            .map(StoredRule))
    }
}

/// A run of one of the caller's workspace's rules (or goal optimisations).
#[derive(Debug)]
pub struct StoredRun(pub RunRow);

impl WorkspaceResource for StoredRun {
    const NAME: &'static str = "Run";
    const KIND: &'static str = "rule_run";

    async fn find(db: &Db, workspace_id: &str, id: &str) -> Result<Option<Self>, sqlx::Error> {
        Ok(store::rule_runs::get(&db.pool, workspace_id, id)
            .await?
            .map(StoredRun))
    }
}
