//! A registered API credential (its client, team and key ids and public key) and the
//! access of the API user behind it, as the store holds them and the journal keeps them.

use std::collections::BTreeSet;

use p256::ecdsa::VerifyingKey;

/// A credential registered through `POST /sandbox/keys`.
#[derive(Debug, Clone)]
pub struct Credential {
    pub client_id: String,
    pub team_id: String,
    pub key_id: String,
    pub key: VerifyingKey,
    pub access: Access,
}

/// What the API user behind a credential may do, as Apple's user roles grant it: every ad
/// account of the organisation or a listed few ("Limited Access"), and writes or not
/// ("Read Only").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// The ad accounts it may use; `None` is all of them.
    pub accounts: Option<BTreeSet<crate::world::Id>>,
    pub read_only: bool,
}

impl Access {
    /// Whether it may use ad account `id`.
    pub fn allows(&self, id: crate::world::Id) -> bool {
        self.accounts.as_ref().is_none_or(|a| a.contains(&id))
    }

    /// The role names `/acls` lists for an ad account it may use.
    pub fn role(&self) -> &'static str {
        match (self.accounts.is_some(), self.read_only) {
            (false, false) => "API Account Manager",
            (false, true) => "API Account Read Only",
            (true, false) => "Limited Access: API Account Manager",
            (true, true) => "Limited Access: API Read Only",
        }
    }
}
