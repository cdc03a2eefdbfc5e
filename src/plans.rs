//! `searchdeck plans …`: the operator's way to a paid plan until billing exists (the logic
//! is in [`searchdeck_api::routes::plans::admin`]; docs/operations.md "Plans").

use clap::Subcommand;
use searchdeck_api::routes::plans::admin;
use searchdeck_common::Db;

#[derive(Subcommand)]
pub enum PlansCommand {
    /// Gives a workspace a paid plan (pro, growth, agency) from now, for --days days or
    /// without an end; its members see it with their next request. `searchdeck members list
    /// --email …` names a user's workspaces.
    Set {
        #[arg(long)]
        workspace: String,
        #[arg(long, value_parser = admin::PLANS)]
        plan: String,
        /// How long the plan lasts; without it, it has no end.
        #[arg(long)]
        days: Option<u32>,
    },
}

/// Runs `command` on `db` and prints what it did.
pub async fn run(db: &Db, command: PlansCommand) -> anyhow::Result<()> {
    match command {
        PlansCommand::Set {
            workspace,
            plan,
            days,
        } => {
            let set = admin::set_plan(db, &workspace, &plan, days).await?;
            let until = set.until.map_or_else(
                || "without an end".to_string(),
                |ms| format!("until {}", searchdeck_common::ids::rfc3339(ms)),
            );
            println!(
                "workspace {} ({}) is on {} {until}",
                set.workspace_id,
                set.workspace_name,
                set.plan.as_str()
            );
        }
    }
    Ok(())
}
