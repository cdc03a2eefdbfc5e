//! Request guards and response headers shared by every route.
//!
//! - Cross-site refusal: a browser request from another site must not change state (a link
//!   or a form elsewhere could otherwise log a user out or spend their recovery throttle).
//!   Every `/api` request with an unsafe method, and every GET route declared with
//!   [`state_changing_gets`], is refused with 403 when any header says it comes from another
//!   site: an `Origin` (or, without one, a `Referer`) naming another host than `Host` —
//!   whatever `Sec-Fetch-Site` claims —, or `Sec-Fetch-Site` other than `same-origin` or
//!   `none`. Requests with none of these headers (scripts, curl) pass the unsafe methods:
//!   a cross-site page cannot send a POST, PUT, PATCH or DELETE without an `Origin`.
//! - A state-changing GET also needs the header [`CLIENT_HEADER`], which the web app's client
//!   sends on every call and no cross-site navigation, link or form can send (a custom
//!   header on a cross-site `fetch` needs a CORS preflight this server never grants): a page
//!   that suppresses `Origin`, `Referer` and Fetch Metadata (a `no-referrer` policy, an old
//!   browser) still cannot make one. Other clients send it too (docs/api/input.md).
//! - HEAD on a state-changing GET route answers 405 (it would otherwise run the GET).
//! - Security headers: a strict Content-Security-Policy (no inline scripts), HSTS when the
//!   client came over HTTPS through a trusted proxy, `Cache-Control: no-store` on `/api`.
//! - Any `/api` error answer that is not already JSON (a rejection from outside the
//!   handlers) is rewritten into the error envelope.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use utoipa::openapi::{PathItem, path::Operation};
use utoipa_axum::router::OpenApiRouter;

use crate::{error::ApiError, state::AppState};

/// The OpenAPI extension marking a state-changing GET.
pub const STATE_CHANGING: &str = "x-state-changing";

/// Message of a refused cross-site request.
pub const CROSS_SITE_REFUSED: &str = "Cross-site requests are not allowed";

/// The header a state-changing GET must carry (any non-empty value; the web app sends
/// `web`).
pub const CLIENT_HEADER: &str = "x-searchdeck-client";
/// Message of a state-changing GET without [`CLIENT_HEADER`].
pub const CLIENT_HEADER_MISSING: &str =
    "This request changes data: send the header X-Searchdeck-Client (the web app sends it)";

/// The web app's Content-Security-Policy: scripts, styles, fonts and calls from this origin
/// only (inline styles are allowed for the component library, inline scripts are not),
/// images also over HTTPS (app icons), no framing, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; \
    connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
    frame-ancestors 'none'";
/// HSTS of answers served over HTTPS: one year, subdomains included.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000; includeSubDomains";

/// Whether the request comes from another site: a foreign `Origin`, else a foreign
/// `Referer`, is decisive (a same-origin claim of Fetch Metadata never outweighs them);
/// then `Sec-Fetch-Site` other than `same-origin` or `none`. No header at all: not a
/// browser's cross-site request.
pub fn is_cross_site(headers: &HeaderMap) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(strip_default_port);
    let foreign =
        |value: &HeaderValue| match (value.to_str().ok().and_then(origin_authority), &host) {
            (Some(from), Some(host)) => !from.eq_ignore_ascii_case(host),
            _ => true,
        };
    if let Some(origin) = headers.get(header::ORIGIN) {
        if foreign(origin) {
            return true;
        }
    } else if let Some(referer) = headers.get(header::REFERER)
        && foreign(referer)
    {
        return true;
    }
    headers
        .get("sec-fetch-site")
        .is_some_and(|site| !matches!(site.as_bytes(), b"same-origin" | b"none"))
}

/// `https://app.example.com:443` → `app.example.com`; `null` and garbage → None.
fn origin_authority(origin: &str) -> Option<String> {
    let (scheme, rest) = origin.split_once("://")?;
    let authority = rest.split('/').next()?;
    let default = match scheme {
        "https" => ":443",
        "http" => ":80",
        _ => return None,
    };
    Some(
        authority
            .strip_suffix(default)
            .unwrap_or(authority)
            .to_string(),
    )
}

fn strip_default_port(host: &str) -> String {
    host.strip_suffix(":443")
        .or_else(|| host.strip_suffix(":80"))
        .unwrap_or(host)
        .to_string()
}

fn refuse_cross_site(headers: &HeaderMap) -> Result<(), ApiError> {
    if is_cross_site(headers) {
        Err(ApiError::status(StatusCode::FORBIDDEN, CROSS_SITE_REFUSED))
    } else {
        Ok(())
    }
}

/// Global guard: unsafe methods on `/api` from another site are refused.
pub async fn cross_site_writes(req: Request, next: Next) -> Response {
    let safe = matches!(
        *req.method(),
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    );
    if !safe
        && req.uri().path().starts_with("/api")
        && let Err(e) = refuse_cross_site(req.headers())
    {
        return e.into_response();
    }
    next.run(req).await
}

async fn state_changing_get(req: Request, next: Next) -> Response {
    if req.method() == Method::HEAD {
        return ApiError::status(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
            .into_response();
    }
    if let Err(e) = refuse_cross_site(req.headers()) {
        return e.into_response();
    }
    if req
        .headers()
        .get(CLIENT_HEADER)
        .is_none_or(|v| v.as_bytes().iter().all(u8::is_ascii_whitespace))
    {
        return ApiError::status(StatusCode::FORBIDDEN, CLIENT_HEADER_MISSING).into_response();
    }
    next.run(req).await
}

/// Declares the GET routes of `router` as state-changing (the spec keeps their method):
/// cross-site calls answer 403 and HEAD answers 405; the OpenAPI document lists the 403 and
/// marks the operation `x-state-changing: true`, which the access tests read.
pub fn state_changing_gets<S>(mut router: OpenApiRouter<S>) -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    for item in router.get_openapi_mut().paths.paths.values_mut() {
        if let Some(op) = item.get.as_mut() {
            add_response(op, 403, CROSS_SITE_REFUSED);
            crate::access::doc::extension(op, STATE_CHANGING, serde_json::Value::Bool(true));
            op.parameters.get_or_insert_with(Vec::new).push(
                utoipa::openapi::path::ParameterBuilder::new()
                    .name("X-Searchdeck-Client")
                    .parameter_in(utoipa::openapi::path::ParameterIn::Header)
                    .required(utoipa::openapi::Required::True)
                    .description(Some(
                        "Any value (the web app sends `web`): proves the call is not a cross-site navigation",
                    ))
                    .schema(Some(
                        utoipa::openapi::ObjectBuilder::new()
                            .schema_type(utoipa::openapi::schema::Type::String)
                            .pattern(Some("^[!-~]+$"))
                            .examples(["web"]),
                    ))
                    .build(),
            );
        }
    }
    router.route_layer(middleware::from_fn(state_changing_get))
}

/// Adds a response (with the error envelope) to an operation unless it lists that status.
pub fn add_response(op: &mut Operation, status: u16, description: &str) {
    op.responses
        .responses
        .entry(status.to_string())
        .or_insert_with(|| crate::access::error_body(description));
}

/// Every operation of a path item with its method name.
pub fn operations(item: &mut PathItem) -> impl Iterator<Item = (&'static str, &mut Operation)> {
    [
        ("get", item.get.as_mut()),
        ("put", item.put.as_mut()),
        ("post", item.post.as_mut()),
        ("delete", item.delete.as_mut()),
        ("patch", item.patch.as_mut()),
    ]
    .into_iter()
    .filter_map(|(m, op)| op.map(|op| (m, op)))
}

/// Security headers of every answer; `no-store` on the API's.
pub async fn security_headers(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api");
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::Ipv4Addr::LOCALHOST.into());
    let https = crate::forwarded::via_https(peer, req.headers(), &state.config.trusted_proxies);
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    if https {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
        );
    }
    if api {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if api {
        return envelope_errors(res).await;
    }
    res
}

/// Rewrites a non-JSON error answer into the error envelope, keeping status and headers.
async fn envelope_errors(res: Response) -> Response {
    let status = res.status();
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if status.as_u16() < 400 || json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => crate::extract::BODY_TOO_LARGE.to_string(),
        StatusCode::INTERNAL_SERVER_ERROR => crate::error::INTERNAL_MESSAGE.to_string(),
        _ => {
            let text = String::from_utf8_lossy(&text).trim().to_string();
            if text.is_empty() {
                status.canonical_reason().unwrap_or("Error").to_string()
            } else {
                text
            }
        }
    };
    let mut rewritten = ApiError::status(status, message).into_response();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rewritten.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rewritten
}

/// The span a request is traced in: its method and path, without the query string, and
/// with a postback URL's token masked — a postback's path is its secret, and is never
/// logged (docs/api/attribution.md).
pub fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    let path = redacted_path(req.uri().path());
    tracing::debug_span!("request", method = %req.method(), path = %path, version = ?req.version())
}

/// `path` with the token of a postback URL replaced by `…`.
pub fn redacted_path(path: &str) -> std::borrow::Cow<'_, str> {
    const POSTBACKS: &str = "/api/attribution/postbacks/";
    match path
        .strip_prefix(POSTBACKS)
        .and_then(|rest| rest.split_once('/'))
    {
        Some((provider, _)) => format!("{POSTBACKS}{provider}/…").into(),
        None => path.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::redacted_path;

    #[test]
    fn postback_tokens_are_not_logged() {
        assert_eq!(
            redacted_path("/api/attribution/postbacks/adjust/s3cr3tT0ken"),
            "/api/attribution/postbacks/adjust/…"
        );
        assert_eq!(redacted_path("/api/asa/reports"), "/api/asa/reports");
    }
}
