//! The operator's way to a paid plan until billing exists (behind the binary's `searchdeck
//! plans set`, docs/operations.md "Plans"): a purchase of Pro, Growth or Agency stored for a
//! workspace, with or without an end, which the plan is then derived from like any purchase
//! (`plan::derive`: the newest purchase in force decides). The Subscription page points
//! owners and admins here (issue 42 item 20).

use searchdeck_common::{
    Db, Engines,
    ids::{new_id, now_ms},
    plan::{
        Plan,
        derive::{DAY_MS, Purchase},
    },
    store,
};

/// The plans the operator sets.
pub const PLANS: [&str; 3] = ["pro", "growth", "agency"];

/// Why `plans set` did nothing.
#[derive(Debug, thiserror::Error)]
pub enum PlansError {
    #[error("no workspace has the id {0} (searchdeck members list --email … names them)")]
    NoSuchWorkspace(String),
    #[error("unknown plan {0}: pro, growth or agency")]
    UnknownPlan(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Plan(#[from] searchdeck_common::report::ReportError),
}

/// What [`set_plan`] did: the workspace's plan now and until when (Unix ms; None: no end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSet {
    pub workspace_id: String,
    pub workspace_name: String,
    pub plan: Plan,
    pub until: Option<i64>,
}

/// Gives workspace `workspace_id` plan `name` (pro, growth, agency) from now, for `days`
/// days or without an end.
pub async fn set_plan(
    db: &Db,
    workspace_id: &str,
    name: &str,
    days: Option<u32>,
) -> Result<PlanSet, PlansError> {
    let now = now_ms();
    let workspace_name = store::workspaces::name(&db.pool, workspace_id)
        .await?
        .ok_or_else(|| PlansError::NoSuchWorkspace(workspace_id.to_string()))?;
    let organization = match name {
        "pro" | "agency" => false,
        "growth" => true,
        other => return Err(PlansError::UnknownPlan(other.to_string())),
    };
    let until = days.map(|d| now + i64::from(d) * DAY_MS);
    let purchase = Purchase {
        id: new_id(),
        name: name.to_string(),
        free: false,
        trial: false,
        full: true,
        organization,
        trial_kind: None,
        suggester: true,
        payment_failed: false,
        started_at: now,
        off_account_time: until,
    };
    store::purchases::insert(&db.pool, workspace_id, &purchase, now).await?;
    // A command of its own: nothing cached yet, so fresh engines.
    let plan = Engines::default()
        .standing(db, workspace_id, now)
        .await?
        .plan;
    Ok(PlanSet {
        workspace_id: workspace_id.to_string(),
        workspace_name,
        plan,
        until,
    })
}

#[cfg(test)]
mod tests {
    use searchdeck_common::test_support::MigratedDb;

    use super::*;

    #[tokio::test]
    async fn sets_a_paid_plan_that_the_workspace_then_has() {
        let f = MigratedDb::sqlite().await;
        let db = &f.db;
        store::workspaces::insert(&db.pool, "w1", "Ann's workspace", now_ms())
            .await
            .unwrap();
        let before = Engines::default()
            .standing(db, "w1", now_ms())
            .await
            .unwrap()
            .plan;
        assert_eq!(before, Plan::ProFree);

        let set = set_plan(db, "w1", "growth", Some(30)).await.unwrap();
        assert_eq!(
            (set.plan, set.workspace_name.as_str()),
            (Plan::Growth, "Ann's workspace")
        );
        let until = set.until.unwrap();
        assert!(
            (until - now_ms() - 30 * DAY_MS).abs() < 60_000,
            "30 days from now"
        );
        assert_eq!(
            Engines::default()
                .standing(db, "w1", now_ms())
                .await
                .unwrap()
                .plan,
            Plan::Growth
        );

        // The newest purchase decides: Pro without an end, then Agency.
        assert_eq!(
            set_plan(db, "w1", "pro", None).await.unwrap().plan,
            Plan::Pro
        );
        assert_eq!(
            set_plan(db, "w1", "agency", None).await.unwrap().plan,
            Plan::Agency
        );
        assert_eq!(
            store::purchases::all(&db.pool, "w1").await.unwrap().len(),
            3
        );
    }

    #[tokio::test]
    async fn refuses_an_unknown_workspace_or_plan() {
        let f = MigratedDb::sqlite().await;
        let db = &f.db;
        assert!(matches!(
            set_plan(db, "nope", "pro", None).await,
            Err(PlansError::NoSuchWorkspace(_))
        ));
        store::workspaces::insert(&db.pool, "w1", "Ann's workspace", now_ms())
            .await
            .unwrap();
        assert!(matches!(
            set_plan(db, "w1", "platinum", None).await,
            Err(PlansError::UnknownPlan(_))
        ));
        assert!(
            store::purchases::all(&db.pool, "w1")
                .await
                .unwrap()
                .is_empty()
        );
    }
}
