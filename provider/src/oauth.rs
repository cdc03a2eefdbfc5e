//! Popup connect: the user approves Searchdeck on the provider's authorize page, which
//! redirects back with `code` and `state`; the code is exchanged at the token endpoint
//! (`grant_type=authorization_code`) for an access token and a refresh token, and the
//! refresh token later buys new access tokens (`grant_type=refresh_token`; the client
//! does that itself with [`crate::Credentials::RefreshToken`]).

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::error::ProviderError;

/// The endpoints and registration of a popup-connect client.
#[derive(Debug, Clone)]
pub struct PopupConnect {
    pub authorize_url: String,
    pub token_url: String,
    pub client_id: String,
    pub redirect_uri: String,
}

/// Tokens from the token endpoint.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub access_token: SecretString,
    /// Present on the authorization-code exchange.
    pub refresh_token: Option<SecretString>,
    pub expires_in: Duration,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    refresh_token: Option<String>,
    expires_in: u64,
}

impl PopupConnect {
    /// Apple's endpoints.
    pub fn apple(client_id: &str, redirect_uri: &str) -> Self {
        Self::with_base("https://appleid.apple.com", client_id, redirect_uri)
    }

    /// A sandbox at `base` (e.g. `http://127.0.0.1:8090`).
    pub fn sandbox(base: &str, client_id: &str, redirect_uri: &str) -> Self {
        Self::with_base(base.trim_end_matches('/'), client_id, redirect_uri)
    }

    fn with_base(base: &str, client_id: &str, redirect_uri: &str) -> Self {
        PopupConnect {
            authorize_url: format!("{base}/auth/oauth2/authorize"),
            token_url: format!("{base}/auth/oauth2/token"),
            client_id: client_id.into(),
            redirect_uri: redirect_uri.into(),
        }
    }

    /// The page to open in the popup; `state` must be unguessable and checked on return.
    pub fn authorize_page(&self, state: &str) -> String {
        let mut url = reqwest::Url::parse(&self.authorize_url).expect("authorize URL is valid");
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.client_id)
            .append_pair("redirect_uri", &self.redirect_uri)
            .append_pair("scope", "searchadsorg")
            .append_pair("state", state);
        url.into()
    }

    /// Reads the redirect back (`code=…&state=…` or `error=…&state=…`, a whole URL or its
    /// query) and returns the code when the state is the one we sent.
    pub fn callback(&self, redirect: &str, expected_state: &str) -> Result<String, ProviderError> {
        let query = redirect.split_once('?').map_or(redirect, |(_, q)| q);
        let mut code = None;
        let (mut state, mut error) = (None, None);
        for (k, v) in url_pairs(query) {
            match k.as_str() {
                "code" => code = Some(v),
                "state" => state = Some(v),
                "error" => error = Some(v),
                _ => {}
            }
        }
        if state.as_deref() != Some(expected_state) {
            return Err(ProviderError::Auth(
                "state mismatch: not our authorization request".into(),
            ));
        }
        if let Some(e) = error {
            return Err(ProviderError::Auth(format!("authorization refused: {e}")));
        }
        code.ok_or_else(|| ProviderError::Auth("no code in the redirect".into()))
    }

    /// Exchanges an authorization code for tokens.
    pub async fn exchange_code(
        &self,
        http: &reqwest::Client,
        code: &str,
    ) -> Result<Tokens, ProviderError> {
        self.token(
            http,
            &[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", &self.redirect_uri),
            ],
        )
        .await
    }

    /// Buys a new access token with a refresh token.
    pub async fn refresh(
        &self,
        http: &reqwest::Client,
        refresh_token: &SecretString,
    ) -> Result<Tokens, ProviderError> {
        self.token(
            http,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh_token.expose_secret()),
            ],
        )
        .await
    }

    async fn token(
        &self,
        http: &reqwest::Client,
        fields: &[(&str, &str)],
    ) -> Result<Tokens, ProviderError> {
        let mut form: Vec<(&str, &str)> = vec![("client_id", &self.client_id)];
        form.extend_from_slice(fields);
        let response = http
            .post(&self.token_url)
            .form(&form)
            .send()
            .await
            .map_err(|e| ProviderError::Retryable {
                status: None,
                message: e.to_string(),
            })?;
        let status = response.status();
        if status.is_server_error() {
            return Err(ProviderError::Retryable {
                status: Some(status.as_u16()),
                message: "token endpoint failed".into(),
            });
        }
        let body: serde_json::Value = response
            .json()
            .await
            .map_err(|e| ProviderError::Decode(e.to_string()))?;
        if !status.is_success() {
            let reason = body["error_description"]
                .as_str()
                .or(body["error"].as_str())
                .unwrap_or("rejected");
            return Err(ProviderError::Auth(reason.to_string()));
        }
        let answer: TokenAnswer = serde_json::from_value(body)
            .map_err(|e| ProviderError::Decode(format!("token response: {e}")))?;
        Ok(Tokens {
            access_token: SecretString::from(answer.access_token),
            refresh_token: answer.refresh_token.map(SecretString::from),
            expires_in: Duration::from_secs(answer.expires_in),
        })
    }
}

fn url_pairs(query: &str) -> Vec<(String, String)> {
    reqwest::Url::parse(&format!("http://x/?{query}"))
        .map(|u| u.query_pairs().into_owned().collect())
        .unwrap_or_default()
}
