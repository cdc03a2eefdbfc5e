//! Shared state of the API process.

use std::sync::Arc;

use searchdeck_common::{
    Config, Db,
    email::{EmailSender, OutgoingEmail},
};

use crate::throttle::Throttles;

/// Everything handlers need, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    pub config: Config,
    pub email: EmailSender,
    pub throttles: Throttles,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    pub fn new(db: Db, config: Config, email: EmailSender) -> AppState {
        AppState(Arc::new(Inner {
            db,
            config,
            email,
            throttles: Throttles::default(),
        }))
    }

    /// Sends an email on behalf of a request.
    pub async fn send_email(&self, email: OutgoingEmail) -> anyhow::Result<()> {
        self.email.send(email).await
    }
}
