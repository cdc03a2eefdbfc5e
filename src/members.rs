//! `searchdeck members …`: the operator's commands over workspace memberships (the logic is
//! in [`searchdeck_api::routes::team::admin`]).

use clap::Subcommand;
use searchdeck_api::{routes::team::admin as members, session::Role};
use searchdeck_common::Db;

#[derive(Subcommand)]
pub enum MembersCommand {
    /// Lists the workspaces of the user with this email and the role in each, oldest first
    /// (a login starts in the first).
    List {
        #[arg(long)]
        email: String,
    },
    /// Sets the role (owner, admin, writer, reader) of the user with this email in one of
    /// their workspaces; their sessions there take it with their next request.
    SetRole {
        #[arg(long)]
        email: String,
        #[arg(long, value_parser = ["owner", "admin", "writer", "reader"])]
        role: String,
        /// The workspace's id; needed only when the user belongs to several.
        #[arg(long)]
        workspace: Option<String>,
    },
}

/// Runs `command` on `db` and prints what it did.
pub async fn run(db: &Db, command: MembersCommand) -> anyhow::Result<()> {
    match command {
        MembersCommand::List { email } => {
            let (email, list) = members::memberships(db, &email).await?;
            if list.is_empty() {
                println!("{email} belongs to no workspace");
            }
            for m in list {
                println!(
                    "{}\t{}\t{}",
                    m.workspace_id,
                    m.role.as_str(),
                    m.workspace_name
                );
            }
        }
        MembersCommand::SetRole {
            email,
            role,
            workspace,
        } => {
            let role = Role::parse(&role).expect("clap admits the four roles only");
            let change = members::set_role(db, &email, workspace.as_deref(), role).await?;
            println!(
                "{} is {} in workspace {} ({}), was {}",
                change.email,
                change.role.as_str(),
                change.workspace_id,
                change.workspace_name,
                change.previous.as_str()
            );
        }
    }
    Ok(())
}
