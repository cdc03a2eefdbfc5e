//! Which key of a connection serves which campaign group, when a connect brings new
//! credentials of an Apple Ads user already connected. Apple grants API access per key, so
//! a new key may reach other groups than the connection's: it never silently re-scopes the
//! connection (issue 43 item 8). The rule, decided here on the stored groups alone:
//!
//! - a new key that reaches every group the connection's first key serves replaces it, and
//!   takes over the groups it reaches from the keys beside it;
//! - a new key that does not, while the first key still works, is kept beside it for the
//!   groups only it reaches (the keys already there keep theirs);
//! - a new key that adds no group changes nothing;
//! - when the first key no longer works (Apple refuses it), the new key replaces it, and the
//!   groups neither it nor a key beside reaches are no longer reachable — the answer names
//!   them and the rules and lists that depend on them.

use std::collections::HashSet;

use searchdeck_common::store::accounts::{ExtraKey, OrgRow};

/// Where the new key goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// It becomes the connection's first key (a new connection's, or a replacement).
    First,
    /// It is kept beside the first key, serving these groups.
    Beside(Vec<i64>),
    /// It reaches no group the connection does not already reach: nothing changes.
    Redundant,
}

/// What a connect with new credentials does to an existing connection's keys.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyPlan {
    pub role: Role,
    /// The keys beside the first after the change (the new key not among them).
    pub beside: Vec<ExtraKey>,
    /// Groups the new key reaches that the connection did not.
    pub added: Vec<OrgRow>,
    /// Groups the new key does not reach that stay reachable through the connection's other
    /// keys.
    pub kept: Vec<OrgRow>,
    /// Groups no key reaches any more (only when the first key no longer works).
    pub lost: Vec<OrgRow>,
}

/// The plan for a connection that has groups `had`, keys `beside` its first one, and a
/// first key that still works (`first_works`), given the groups `found` the new key reaches.
pub fn plan(had: &[OrgRow], beside: &[ExtraKey], found: &[OrgRow], first_works: bool) -> KeyPlan {
    let reached: HashSet<i64> = found.iter().map(|o| o.org_id).collect();
    let by_others: HashSet<i64> = beside
        .iter()
        .flat_map(|k| k.org_ids.iter().copied())
        .collect();
    let by_first: Vec<&OrgRow> = had
        .iter()
        .filter(|o| !by_others.contains(&o.org_id))
        .collect();
    let added: Vec<OrgRow> = found
        .iter()
        .filter(|f| !had.iter().any(|h| h.org_id == f.org_id))
        .cloned()
        .collect();
    let replaces = !first_works || by_first.iter().all(|o| reached.contains(&o.org_id));
    let role = if replaces {
        Role::First
    } else {
        let needed: Vec<i64> = found
            .iter()
            .map(|f| f.org_id)
            .filter(|id| !had.iter().any(|o| o.org_id == *id))
            .collect();
        if needed.is_empty() {
            Role::Redundant
        } else {
            Role::Beside(needed)
        }
    };
    // The new key takes over the groups it serves from the keys beside; a key left serving
    // none is dropped.
    let taken: HashSet<i64> = match &role {
        Role::First => reached.clone(),
        Role::Beside(ids) => ids.iter().copied().collect(),
        Role::Redundant => HashSet::new(),
    };
    let beside_after: Vec<ExtraKey> = beside
        .iter()
        .map(|k| ExtraKey {
            org_ids: k
                .org_ids
                .iter()
                .copied()
                .filter(|id| !taken.contains(id))
                .collect(),
            ..k.clone()
        })
        .filter(|k| !k.org_ids.is_empty())
        .collect();
    let still_beside: HashSet<i64> = beside_after
        .iter()
        .flat_map(|k| k.org_ids.iter().copied())
        .collect();
    let (kept, lost) = had
        .iter()
        .filter(|o| !reached.contains(&o.org_id))
        .cloned()
        .partition(|o| role != Role::First || still_beside.contains(&o.org_id));
    KeyPlan {
        role,
        beside: beside_after,
        added,
        kept,
        lost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn org(id: i64) -> OrgRow {
        OrgRow {
            org_id: id,
            display_name: format!("G{id}"),
            currency: None,
            time_zone: None,
            permission: "API Account Manager".into(),
            selected: true,
        }
    }

    fn key(id: &str, orgs: &[i64]) -> ExtraKey {
        ExtraKey {
            id: id.into(),
            method: "key".into(),
            client_id: format!("c-{id}"),
            team_id: Some("t".into()),
            key_id: Some(id.into()),
            private_key_sealed: Some("sealed".into()),
            refresh_token_sealed: None,
            org_ids: orgs.to_vec(),
            added_at: 1,
        }
    }

    fn ids(orgs: &[OrgRow]) -> Vec<i64> {
        orgs.iter().map(|o| o.org_id).collect()
    }

    #[test]
    fn a_key_reaching_every_group_of_the_first_replaces_it() {
        let p = plan(&[org(1), org(2)], &[], &[org(1), org(2), org(3)], true);
        assert_eq!(p.role, Role::First);
        assert_eq!(ids(&p.added), [3]);
        assert!(p.kept.is_empty() && p.lost.is_empty() && p.beside.is_empty());
    }

    #[test]
    fn a_key_limited_to_another_group_is_kept_beside_for_it() {
        let p = plan(&[org(1), org(2)], &[], &[org(2), org(3)], true);
        assert_eq!(p.role, Role::Beside(vec![3]));
        assert_eq!(ids(&p.added), [3]);
        assert_eq!(ids(&p.kept), [1], "group 1 stays with the first key");
        assert!(p.lost.is_empty());
    }

    #[test]
    fn a_key_within_the_groups_already_reached_changes_nothing() {
        let p = plan(&[org(1), org(2)], &[key("b", &[2])], &[org(2)], true);
        assert_eq!(p.role, Role::Redundant);
        assert_eq!(p.beside, [key("b", &[2])]);
        assert!(p.added.is_empty() && p.lost.is_empty());
    }

    #[test]
    fn a_new_first_key_takes_its_groups_from_the_keys_beside() {
        // Key b serves 2 and 3; the new key reaches 1 (the first's) and 2.
        let p = plan(
            &[org(1), org(2), org(3)],
            &[key("b", &[2, 3])],
            &[org(1), org(2)],
            true,
        );
        assert_eq!(p.role, Role::First);
        assert_eq!(p.beside, [key("b", &[3])]);
        assert_eq!(ids(&p.kept), [3]);
        // And a key beside left serving nothing is dropped.
        let p = plan(
            &[org(1), org(2)],
            &[key("b", &[2])],
            &[org(1), org(2)],
            true,
        );
        assert!(p.beside.is_empty());
    }

    #[test]
    fn a_key_beside_serves_only_the_groups_no_key_reached() {
        let p = plan(
            &[org(1), org(2)],
            &[key("b", &[2])],
            &[org(2), org(3)],
            true,
        );
        assert_eq!(p.role, Role::Beside(vec![3]));
        assert_eq!(p.beside, [key("b", &[2])], "key b keeps group 2");
    }

    #[test]
    fn when_the_first_key_is_refused_the_new_one_replaces_it_and_says_what_is_lost() {
        let p = plan(
            &[org(1), org(2), org(3)],
            &[key("b", &[3])],
            &[org(2)],
            false,
        );
        assert_eq!(p.role, Role::First);
        assert_eq!(ids(&p.lost), [1]);
        assert_eq!(ids(&p.kept), [3]);
    }
}
