//! Registered API credentials (public keys), issued access and refresh tokens, and
//! authorization codes of the consent page. With a journal ([`AuthStore::journaled`]),
//! every key, refresh token and code is kept across restarts (see [`super::kept`]).

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use rand::Rng;
use time::{Duration, OffsetDateTime};

pub use super::credential::{Access, Credential};
use super::kept::{AuthLine, AuthSink};
use crate::clock::Clock;

/// Access-token lifetime (Apple issues one-hour tokens).
pub const TOKEN_LIFETIME: Duration = Duration::hours(1);
/// Authorization-code lifetime.
pub const CODE_LIFETIME: Duration = Duration::minutes(10);

#[derive(Debug, Clone)]
struct Grant {
    client_id: String,
    expires: OffsetDateTime,
}

#[derive(Debug, Clone)]
struct Code {
    client_id: String,
    redirect_uri: String,
    expires: OffsetDateTime,
}

#[derive(Default)]
struct Inner {
    credentials: HashMap<String, Credential>,
    tokens: HashMap<String, Grant>,
    refresh_tokens: HashMap<String, String>,
    codes: HashMap<String, Code>,
}

/// Thread-safe credential and token store; token and code lifetimes run on the sandbox's
/// simulated clock.
pub struct AuthStore {
    inner: Mutex<Inner>,
    clock: Arc<Clock>,
    sink: Option<Arc<dyn AuthSink>>,
}

/// A fresh random token with a recognisable prefix.
fn random_token(prefix: &str) -> String {
    let bytes: [u8; 24] = rand::rng().random();
    format!("{prefix}{}", hex::encode(bytes))
}

impl Default for AuthStore {
    fn default() -> Self {
        Self::with_clock(Arc::new(Clock::new(OffsetDateTime::now_utc(), true)))
    }
}

impl AuthStore {
    /// An empty store whose lifetimes run on `clock`.
    pub fn with_clock(clock: Arc<Clock>) -> Self {
        AuthStore {
            inner: Mutex::default(),
            clock,
            sink: None,
        }
    }

    /// A store holding what `lines` (a journal's, oldest first) recorded, which records
    /// its changes to `sink`.
    pub fn journaled(
        clock: Arc<Clock>,
        lines: &[AuthLine],
        sink: Arc<dyn AuthSink>,
    ) -> anyhow::Result<Self> {
        let mut inner = Inner::default();
        for line in lines {
            match line {
                AuthLine::Credential { .. } => {
                    if let Some(c) = line.to_credential()? {
                        inner.credentials.insert(c.client_id.clone(), c);
                    }
                }
                AuthLine::RefreshToken { token, client_id } => {
                    inner
                        .refresh_tokens
                        .insert(token.clone(), client_id.clone());
                }
                AuthLine::Code {
                    code,
                    client_id,
                    redirect_uri,
                    expires,
                } => {
                    let entry = Code {
                        client_id: client_id.clone(),
                        redirect_uri: redirect_uri.clone(),
                        expires: *expires,
                    };
                    inner.codes.insert(code.clone(), entry);
                }
                AuthLine::CodeUsed { code } => {
                    inner.codes.remove(code);
                }
            }
        }
        Ok(AuthStore {
            inner: Mutex::new(inner),
            clock,
            sink: Some(sink),
        })
    }

    /// Records `line` in the journal, if there is one.
    fn record(&self, line: AuthLine) {
        if let Some(sink) = &self.sink {
            sink.append_auth(&line);
        }
    }

    pub fn register(&self, credential: Credential) {
        self.record(AuthLine::credential(&credential));
        self.inner
            .lock()
            .credentials
            .insert(credential.client_id.clone(), credential);
    }

    pub fn credential(&self, client_id: &str) -> Option<Credential> {
        self.inner.lock().credentials.get(client_id).cloned()
    }

    /// Issues an access token for `client_id`; returns it with its lifetime in seconds.
    pub fn issue_token(&self, client_id: &str) -> (String, i64) {
        let token = random_token("sbx.at.");
        let grant = Grant {
            client_id: client_id.to_string(),
            expires: self.clock.now() + TOKEN_LIFETIME,
        };
        self.inner.lock().tokens.insert(token.clone(), grant);
        (token, TOKEN_LIFETIME.whole_seconds())
    }

    /// Issues a refresh token for `client_id`.
    pub fn issue_refresh_token(&self, client_id: &str) -> String {
        let token = random_token("sbx.rt.");
        self.record(AuthLine::RefreshToken {
            token: token.clone(),
            client_id: client_id.to_string(),
        });
        self.inner
            .lock()
            .refresh_tokens
            .insert(token.clone(), client_id.to_string());
        token
    }

    /// The client a refresh token belongs to.
    pub fn refresh_client(&self, refresh_token: &str) -> Option<String> {
        self.inner.lock().refresh_tokens.get(refresh_token).cloned()
    }

    /// The client id of a valid, unexpired access token.
    pub fn check_token(&self, token: &str) -> Option<String> {
        let inner = self.inner.lock();
        inner
            .tokens
            .get(token)
            .filter(|g| g.expires > self.clock.now())
            .map(|g| g.client_id.clone())
    }

    /// The access of the API user an access token was issued to (all of it for clients that
    /// connected through the consent page without registering a key).
    pub fn access(&self, client_id: &str) -> Access {
        self.inner
            .lock()
            .credentials
            .get(client_id)
            .map(|c| c.access.clone())
            .unwrap_or_default()
    }

    /// Revokes every access token (admin: forces clients through a refresh).
    pub fn revoke_all(&self) -> usize {
        let mut inner = self.inner.lock();
        let n = inner.tokens.len();
        inner.tokens.clear();
        n
    }

    /// Issues a one-time authorization code.
    pub fn issue_code(&self, client_id: &str, redirect_uri: &str) -> String {
        let code = random_token("sbx.ac.");
        let entry = Code {
            client_id: client_id.into(),
            redirect_uri: redirect_uri.into(),
            expires: self.clock.now() + CODE_LIFETIME,
        };
        self.record(AuthLine::Code {
            code: code.clone(),
            client_id: entry.client_id.clone(),
            redirect_uri: entry.redirect_uri.clone(),
            expires: entry.expires,
        });
        self.inner.lock().codes.insert(code.clone(), entry);
        code
    }

    /// Consumes a code issued to `client_id` for `redirect_uri` (if one is given).
    pub fn take_code(&self, code: &str, client_id: &str, redirect_uri: Option<&str>) -> bool {
        let Some(entry) = self.inner.lock().codes.remove(code) else {
            return false;
        };
        self.record(AuthLine::CodeUsed {
            code: code.to_string(),
        });
        entry.client_id == client_id
            && entry.expires > self.clock.now()
            && redirect_uri.is_none_or(|r| r == entry.redirect_uri)
    }
}
