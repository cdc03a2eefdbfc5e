//! The shared state behind every route: the world, credentials and tokens, fault settings
//! and the rate-limit windows.

use std::sync::Arc;

use parking_lot::RwLock;

use crate::auth::store::AuthStore;
use crate::faults::Faults;
use crate::world::{World, WorldConfig};

/// How to start a sandbox.
#[derive(Debug, Clone, Copy, Default)]
pub struct SandboxConfig {
    pub world: WorldConfig,
    pub faults: crate::faults::FaultConfig,
}

/// One running sandbox.
pub struct Sandbox {
    pub world: RwLock<World>,
    pub auth: AuthStore,
    pub faults: Faults,
    /// Recommendations applied or dismissed through the API.
    pub recommendations: crate::api::recommendations::Decisions,
}

impl Sandbox {
    /// Generates the world and empty credential stores.
    pub fn new(config: SandboxConfig) -> Arc<Self> {
        let started = std::time::Instant::now();
        let world = World::generate(config.world);
        tracing::info!(
            seed = config.world.seed,
            keywords = world.keywords.len(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "sandbox world generated"
        );
        Arc::new(Sandbox {
            world: RwLock::new(world),
            auth: AuthStore::default(),
            faults: Faults::new(config.faults, config.world.seed),
            recommendations: Default::default(),
        })
    }
}
