//! Shared state of the API process.

use std::{sync::Arc, time::Duration};

use tokio::sync::mpsc;

use searchdeck_common::{
    Config, Db,
    email::OutgoingEmail,
    queue::{Job, Queue},
};

use crate::{
    domain::Email, error::ApiError, passwords::PasswordHasher, routes::auth::recovery,
    throttle::Throttles,
};

/// Everything handlers need, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    pub config: Config,
    pub queue: Queue,
    pub throttles: Throttles,
    /// The bounded pool every password hash goes through.
    pub passwords: PasswordHasher,
    /// Recovery requests for the background task that answers them.
    recovery: mpsc::Sender<Email>,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Inner {
    /// Queues an email; a worker sends it (with retries), so a slow or failing mail server
    /// never holds up the request.
    pub async fn send_email(&self, email: OutgoingEmail) -> anyhow::Result<()> {
        self.queue.enqueue(&Job::SendEmail(email)).await?;
        Ok(())
    }
}

impl AppState {
    /// The state and its background recovery task (which ends when the state is dropped);
    /// call inside a Tokio runtime.
    pub fn new(db: Db, config: Config, queue: Queue) -> AppState {
        let (recovery, requests) = mpsc::channel(recovery::PENDING_REQUESTS);
        let inner = Arc::new(Inner {
            db,
            config,
            queue,
            throttles: Throttles::default(),
            passwords: PasswordHasher::default(),
            recovery,
        });
        tokio::spawn(recovery::serve_requests(Arc::downgrade(&inner), requests));
        AppState(inner)
    }

    /// Hands a recovery request to the background task; 503 when too many are pending.
    pub async fn request_recovery(&self, email: Email) -> Result<(), ApiError> {
        match self
            .recovery
            .send_timeout(email, Duration::from_secs(2))
            .await
        {
            Ok(()) => Ok(()),
            Err(_) => Err(ApiError::busy()),
        }
    }
}
