//! One client per stored connection in a process, shared by everything the process does for
//! it: a client caches its access token, so a connection exchanges its credentials once per
//! token lifetime instead of once per API request or per job (the token endpoint is paced
//! by the limiter like any call). The API's routes and the workers' jobs both reach their
//! clients through a [`ClientCache`].

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use crate::AppleAds;

/// Clients by connection id, each with the fingerprint of the stored credentials it was
/// built from (`searchdeck_common::stored_credentials::fingerprint`): a connection whose
/// credentials changed gets a new client.
#[derive(Default)]
pub struct ClientCache {
    clients: Mutex<HashMap<String, Cached>>,
}

/// A cached client and the fingerprint of the credentials it was built from.
type Cached = (u64, Arc<dyn AppleAds>);

impl std::fmt::Debug for ClientCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.clients.lock().map_or(0, |c| c.len());
        f.debug_struct("ClientCache").field("clients", &n).finish()
    }
}

impl ClientCache {
    /// Most connections' clients kept; past it the cache starts over.
    pub const MAX_CLIENTS: usize = 1000;

    /// The client of connection `id` built from credentials with `fingerprint`: the cached
    /// one when its fingerprint matches, else the one `build` makes (then cached).
    pub fn get_or_build<E>(
        &self,
        id: &str,
        fingerprint: u64,
        build: impl FnOnce() -> Result<Arc<dyn AppleAds>, E>,
    ) -> Result<Arc<dyn AppleAds>, E> {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((f, client)) = clients.get(id)
            && *f == fingerprint
        {
            return Ok(client.clone());
        }
        let client = build()?;
        if clients.len() >= Self::MAX_CLIENTS {
            clients.clear();
        }
        clients.insert(id.to_string(), (fingerprint, client.clone()));
        Ok(client)
    }
}
