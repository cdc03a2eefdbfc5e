//! Calls into a sandbox's router without a socket: a token, the ad account header and JSON.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use searchdeck_sandbox::{Sandbox, SandboxConfig};
use serde_json::Value;
use tower::ServiceExt;

/// A sandbox with its router and a bearer token.
pub struct Client {
    pub sandbox: Arc<Sandbox>,
    pub app: Router,
    pub token: std::sync::Mutex<String>,
}

impl Client {
    pub fn new(config: SandboxConfig) -> Self {
        let sandbox = Sandbox::new(config);
        let app = searchdeck_sandbox::app(sandbox.clone());
        let (token, _) = sandbox.auth.issue_token("test");
        Client {
            sandbox,
            app,
            token: std::sync::Mutex::new(token),
        }
    }

    /// The first ad account.
    pub fn account(&self) -> i64 {
        *self.sandbox.world.read().accounts.keys().next().unwrap()
    }

    /// `method path` with `body`, under ad account `account`; answers status and JSON.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(
                "authorization",
                format!("Bearer {}", self.token.lock().unwrap()),
            )
            .header("content-type", "application/json");
        if let Some(a) = account {
            request = request.header("x-ap-context", format!("adAccountId={a}"));
        }
        let body = body.map_or(Body::empty(), |b| Body::from(b.to_string()));
        let response = self
            .app
            .clone()
            .oneshot(request.body(body).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value)
    }

    /// `POST /v1{path}` under the first ad account, expecting success.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, v) = self
            .call(
                Method::POST,
                &format!("/v1{path}"),
                Some(self.account()),
                Some(&body),
            )
            .await;
        assert!(status.is_success(), "{path}: {status} {v}");
        v
    }

    /// `PUT /sandbox/clock` with `body`, then a fresh token (the old one may have expired
    /// on the new time).
    pub async fn clock(&self, body: Value) -> (StatusCode, Value) {
        let answer = self.clock_only(body).await;
        *self.token.lock().unwrap() = self.sandbox.auth.issue_token("test").0;
        answer
    }

    /// `PUT /sandbox/clock` with `body`, keeping the token.
    pub async fn clock_only(&self, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, "/sandbox/clock", None, Some(&body))
            .await
    }
}
