//! The consent page standing in for "Continue with Apple": `GET /auth/oauth2/authorize`
//! shows a plain HTML form; posting `decision=allow` redirects to
//! `redirect_uri?code=…&state=…`, `decision=deny` to `redirect_uri?error=access_denied&state=…`.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::state::Sandbox;

/// Query of the page and fields of its form.
#[derive(Debug, Deserialize)]
pub struct AuthorizeParams {
    client_id: Option<String>,
    redirect_uri: Option<String>,
    state: Option<String>,
    decision: Option<String>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Checks the parameters both steps need; answers 400 with a readable page otherwise.
fn checked(p: &AuthorizeParams) -> Result<(&str, &str), &'static str> {
    let client_id = p
        .client_id
        .as_deref()
        .filter(|c| !c.is_empty())
        .ok_or("client_id is required")?;
    let redirect = p
        .redirect_uri
        .as_deref()
        .ok_or("redirect_uri is required")?;
    if !(redirect.starts_with("http://") || redirect.starts_with("https://")) {
        return Err("redirect_uri must be an http(s) URL");
    }
    Ok((client_id, redirect))
}

fn bad(message: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Html(format!(
            "<!doctype html><p>Invalid request: {}</p>",
            escape(message)
        )),
    )
        .into_response()
}

/// `GET /auth/oauth2/authorize`.
pub async fn show(Query(p): Query<AuthorizeParams>) -> Response {
    let (client_id, redirect) = match checked(&p) {
        Ok(v) => v,
        Err(m) => return bad(m),
    };
    let state = p.state.as_deref().unwrap_or_default();
    let hidden = |name: &str, value: &str| {
        format!(
            r#"<input type="hidden" name="{name}" value="{}">"#,
            escape(value)
        )
    };
    Html(format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in with Apple (sandbox)</title></head>
<body style="font-family: system-ui; max-width: 28rem; margin: 4rem auto">
<h1>Continue with Apple</h1>
<p><strong>{client}</strong> wants to manage your Apple Ads campaigns (sandbox).</p>
<form method="post" action="/auth/oauth2/authorize">
{c}{r}{s}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>"#,
        client = escape(client_id),
        c = hidden("client_id", client_id),
        r = hidden("redirect_uri", redirect),
        s = hidden("state", state),
    ))
    .into_response()
}

/// `POST /auth/oauth2/authorize`.
pub async fn decide(
    State(sandbox): State<Arc<Sandbox>>,
    Form(p): Form<AuthorizeParams>,
) -> Response {
    let (client_id, redirect) = match checked(&p) {
        Ok(v) => v,
        Err(m) => return bad(m),
    };
    let state = p.state.clone().unwrap_or_default();
    let query = match p.decision.as_deref() {
        Some("allow") => {
            let code = sandbox.auth.issue_code(client_id, redirect);
            serde_urlencoded::to_string([("code", code.as_str()), ("state", state.as_str())])
        }
        Some("deny") => {
            serde_urlencoded::to_string([("error", "access_denied"), ("state", state.as_str())])
        }
        _ => {
            return (
                StatusCode::BAD_REQUEST,
                Html("<!doctype html><p>decision must be allow or deny</p>"),
            )
                .into_response();
        }
    }
    .expect("pairs of strings encode");
    let separator = if redirect.contains('?') { '&' } else { '?' };
    Redirect::to(&format!("{redirect}{separator}{query}")).into_response()
}
