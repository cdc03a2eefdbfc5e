//! The App Store Connect API standing in, on Apple's paths below `/appstoreconnect` (the
//! sandbox serves Apple Ads under `/v1`, so the two hosts' `/v1` cannot share one root):
//! `GET /appstoreconnect/v1/apps` (the world's advertised apps, JSON:API with `limit` and
//! `links.next`) and `GET /appstoreconnect/v1/salesReports` (the DAILY SALES SUMMARY
//! report, gzip'd tab-separated text, [`sales`]).
//!
//! Every call needs `Authorization: Bearer <JWT>` as Apple's "Generating Tokens for API
//! Requests" describes it: ES256 signed by a key registered here, header `kid` = the key
//! id, claims `iss` = its issuer id, `aud` = `appstoreconnect-v1`, `exp` in the future and
//! at most 20 minutes ahead. Anything else answers 401 with Apple's `ErrorResponse`
//! (`NOT_AUTHORIZED`). `POST /sandbox/appstoreconnect/keys` (body: a PEM public key)
//! registers a key the way a team's Users and Access page makes one, answering its
//! `issuerId` and `keyId`; the team's vendor number is [`VENDOR_NUMBER`].

pub mod sales;

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use parking_lot::RwLock;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::state::Sandbox;

/// The audience Apple requires.
pub const AUDIENCE: &str = "appstoreconnect-v1";
/// The latest expiry Apple accepts, from now.
pub const MAX_AHEAD_SECS: i64 = 20 * 60;
/// The sandbox team's vendor number (Payments and Financial Reports).
pub const VENDOR_NUMBER: &str = "85000042";

/// The registered keys by key id: (issuer id, public key).
#[derive(Debug, Default)]
pub struct AscKeys {
    keys: RwLock<HashMap<String, (String, VerifyingKey)>>,
}

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/appstoreconnect/v1/apps", get(apps))
        .route("/appstoreconnect/v1/salesReports", get(sales::report))
        .route("/sandbox/appstoreconnect/keys", post(register))
}

/// Apple's `ErrorResponse` of one error.
pub fn error(status: StatusCode, code: &str, title: &str, detail: &str) -> Response {
    let id = hex::encode(&Sha256::digest(format!("{code}{detail}").as_bytes())[..16]);
    (
        status,
        Json(json!({"errors": [{
            "id": id, "status": status.as_u16().to_string(), "code": code,
            "title": title, "detail": detail,
        }]})),
    )
        .into_response()
}

pub fn unauthorized() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "NOT_AUTHORIZED",
        "Authentication credentials are missing or invalid.",
        "Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens",
    )
}

/// `POST /sandbox/appstoreconnect/keys`: a PEM public key registered; its ids derived from
/// it (a UUID issuer id, a 10-character key id), so one key always gets the same.
async fn register(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let pem = String::from_utf8_lossy(&body).trim().to_string();
    let Ok(key) = VerifyingKey::from_public_key_pem(&pem) else {
        return (
            StatusCode::BAD_REQUEST,
            "body must be a PEM P-256 public key",
        )
            .into_response();
    };
    let digest = Sha256::digest(pem.as_bytes());
    let h = hex::encode(&digest[..16]);
    let issuer_id = format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    );
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let key_id: String = digest[16..26]
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    sandbox
        .app_store_connect
        .keys
        .write()
        .insert(key_id.clone(), (issuer_id.clone(), key));
    (
        StatusCode::CREATED,
        Json(json!({"issuerId": issuer_id, "keyId": key_id, "vendorNumber": VENDOR_NUMBER})),
    )
        .into_response()
}

fn decode(part: &str) -> Option<Value> {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).ok()?).ok()
}

/// Whether the bearer token of `headers` is one of a registered key's, valid at `now`.
fn verify(keys: &AscKeys, headers: &HeaderMap, now: i64) -> bool {
    let Some(token) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let parts: Vec<&str> = token.split('.').collect();
    let [h64, c64, s64] = parts.as_slice() else {
        return false;
    };
    let (Some(header), Some(claims)) = (decode(h64), decode(c64)) else {
        return false;
    };
    if header["alg"] != "ES256" || header["typ"] != "JWT" {
        return false;
    }
    let keys = keys.keys.read();
    let Some((issuer, key)) = header["kid"].as_str().and_then(|kid| keys.get(kid)) else {
        return false;
    };
    let signature = URL_SAFE_NO_PAD
        .decode(s64)
        .ok()
        .and_then(|s| Signature::from_slice(&s).ok());
    let Some(signature) = signature else {
        return false;
    };
    if key
        .verify(format!("{h64}.{c64}").as_bytes(), &signature)
        .is_err()
    {
        return false;
    }
    let exp = claims["exp"].as_i64().unwrap_or(0);
    claims["iss"] == issuer.as_str()
        && claims["aud"] == AUDIENCE
        && exp > now
        && exp - now <= MAX_AHEAD_SECS
}

/// Whether the request's token verifies (by the real clock: tokens are dated so); the
/// caller answers [`unauthorized`] otherwise.
pub fn authorized(sandbox: &Sandbox, headers: &HeaderMap) -> bool {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    verify(&sandbox.app_store_connect, headers, now)
}

/// `GET /v1/apps`: the world's advertised apps by Apple ID, `limit` (1–200, default 50)
/// per page, `cursor` the offset of the next page.
async fn apps(
    State(sandbox): State<Arc<Sandbox>>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    if !authorized(&sandbox, &headers) {
        return unauthorized();
    }
    let limit = match q.get("limit").map(|l| l.parse::<usize>()) {
        None => 50,
        Some(Ok(l)) if (1..=200).contains(&l) => l,
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "PARAMETER_ERROR.INVALID",
                "A parameter has an invalid value",
                "'limit' must be between 1 and 200",
            );
        }
    };
    let offset: usize = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let w = sandbox.world.read();
    let all: Vec<_> = w.apps.values().filter(|a| a.owner.is_some()).collect();
    let data: Vec<Value> = all
        .iter()
        .skip(offset)
        .take(limit)
        .map(|a| {
            json!({
                "type": "apps", "id": a.adam_id.to_string(),
                "attributes": {"name": a.name, "bundleId": sales::bundle_id(a), "sku": sales::sku(a.adam_id), "primaryLocale": "en-US"},
                "links": {"self": format!("/v1/apps/{}", a.adam_id)},
            })
        })
        .collect();
    let mut links = json!({"self": "/v1/apps"});
    if offset + limit < all.len() {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("localhost");
        links["next"] = json!(format!(
            "http://{host}/appstoreconnect/v1/apps?limit={limit}&cursor={}",
            offset + limit
        ));
    }
    Json(json!({"data": data, "links": links, "meta": {"paging": {"total": all.len(), "limit": limit}}}))
        .into_response()
}
