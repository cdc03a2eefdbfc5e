//! Shared state of the API process.

use std::sync::Arc;

use searchdeck_common::{
    Config, Db,
    email::OutgoingEmail,
    queue::{Job, Queue},
};

use crate::throttle::Throttles;

/// Everything handlers need, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    pub config: Config,
    pub queue: Queue,
    pub throttles: Throttles,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    pub fn new(db: Db, config: Config, queue: Queue) -> AppState {
        AppState(Arc::new(Inner {
            db,
            config,
            queue,
            throttles: Throttles::default(),
        }))
    }

    /// Queues an email; a worker sends it (with retries), so a slow or failing mail server
    /// never holds up the request.
    pub async fn send_email(&self, email: OutgoingEmail) -> anyhow::Result<()> {
        self.queue.enqueue(&Job::SendEmail(email)).await?;
        Ok(())
    }
}
