//! What a connect did: a connection added, or the one the same Apple Ads user already had
//! updated, with the campaign groups the new credentials add, keep or lose and what depends
//! on them, in the words the user is told.

use searchdeck_common::store::{self, accounts::OrgRow};

use crate::routes::accounts::keys::Role;

/// What a connect did: added a connection, or updated the one the same Apple Ads user
/// already had in the workspace (its name, and its keys as [`keys::plan`](crate::routes::accounts::keys::plan) decides).
#[derive(Debug, Clone)]
pub struct Saved {
    /// The connection's id.
    pub id: String,
    /// The existing connection's name before this connect; None when it was added.
    pub previous_name: Option<String>,
    /// Where the new credentials went (`First` for a new connection).
    pub role: Role,
    /// Campaign groups the new credentials reach that the connection did not (their names).
    pub groups_added: Vec<String>,
    /// Groups the new credentials do not reach that stay reachable with the connection's
    /// earlier credentials, each with what depends on it.
    pub groups_kept: Vec<String>,
    /// Groups no credentials of the connection reach any more (its earlier ones refused),
    /// each with what depends on it.
    pub groups_lost: Vec<String>,
}

impl Saved {
    /// What the user is told: 'New account added', or that the Apple Ads user was already
    /// connected (under which name) and exactly what changed: the groups added, those the
    /// new credentials do not reach (kept with the earlier ones, or no longer reachable) and
    /// the rules and lists that depend on them.
    pub fn message(&self, name: &str) -> String {
        let Some(old) = &self.previous_name else {
            return "New account added".into();
        };
        let connected =
            format!("This Apple Ads user is already connected as \u{201c}{old}\u{201d}");
        let mut parts = vec![match (&self.role, old == name) {
            (Role::Redundant, _) => format!(
                "{connected}, and its credentials already reach every campaign group these reach; nothing changed"
            ),
            (Role::Beside(_), true) => {
                format!("{connected}; these credentials were added beside its earlier ones")
            }
            (Role::Beside(_), false) => format!(
                "{connected}; these credentials were added beside its earlier ones, and its name \
                 was updated to \u{201c}{name}\u{201d}"
            ),
            (Role::First, true) => format!("{connected}; its credentials were updated"),
            (Role::First, false) => {
                format!("{connected}; its name was updated to \u{201c}{name}\u{201d}")
            }
        }];
        if !self.groups_added.is_empty() {
            parts.push(format!(
                "Campaign groups added: {}",
                self.groups_added.join(", ")
            ));
        }
        if !self.groups_kept.is_empty() && self.role != Role::Redundant {
            parts.push(format!(
                "Not reached by these credentials, still reached with the earlier ones: {}",
                self.groups_kept.join("; ")
            ));
        }
        if !self.groups_lost.is_empty() {
            parts.push(format!(
                "Apple Ads refused the earlier credentials, so these campaign groups are no longer \
                 reachable: {}. Connect credentials with access to them to use them again",
                self.groups_lost.join("; ")
            ));
        }
        parts.join(". ")
    }
}

/// Campaign groups `orgs` of connection `account_id` as the answer names them, each with
/// what depends on it.
pub(super) async fn described(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account_id: &str,
    orgs: &[OrgRow],
) -> Result<Vec<String>, sqlx::Error> {
    let mut out = Vec::with_capacity(orgs.len());
    for org in orgs {
        let (rules, lists) = store::accounts::dependents_of_org(tx, account_id, org.org_id).await?;
        out.push(group_with_dependents(
            &org.display_name,
            org.org_id,
            &rules,
            &lists,
        ));
    }
    Ok(out)
}

/// A campaign group the new credentials do not reach, with what depends on it.
fn group_with_dependents(name: &str, org_id: i64, rules: &[String], lists: &[String]) -> String {
    let mut needs = Vec::new();
    if !rules.is_empty() {
        needs.push(format!(
            "{} {} ({})",
            rules.len(),
            if rules.len() == 1 { "rule" } else { "rules" },
            rules.join(", ")
        ));
    }
    if !lists.is_empty() {
        needs.push(format!(
            "{} negative keyword {} ({})",
            lists.len(),
            if lists.len() == 1 { "list" } else { "lists" },
            lists.join(", ")
        ));
    }
    if needs.is_empty() {
        format!("\u{201c}{name}\u{201d} ({org_id})")
    } else {
        format!(
            "\u{201c}{name}\u{201d} ({org_id}), used by {}",
            needs.join(" and ")
        )
    }
}
