//! Stand-ins for the public App Store endpoints the keyword suggester reads, outside `/v1`
//! and without a token, with the real endpoints' parameters and answers:
//! `GET /appstore/lookup?id=…&country=…` and `GET /appstore/search?term=…&country=…&
//! entity=software&limit=…` as the iTunes Search API (`https://itunes.apple.com/lookup`,
//! `/search`: `{resultCount, results}`), and `GET /appstore/hints?clientApplication=Software
//! &term=…` as the App Store search hints endpoint (storefront in `X-Apple-Store-Front`,
//! answered as an XML property list `{title, hints: [{term, priority, url}]}`).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Value, json};

use super::{rules, vocabulary};
use crate::metrics::popularity;
use crate::state::Sandbox;
use crate::world::{App, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/appstore/lookup", get(lookup))
        .route("/appstore/search", get(search))
        .route("/appstore/hints", get(hints))
}

/// The currency an App Store storefront prices in.
fn currency(country: &str) -> &'static str {
    match country {
        "GB" => "GBP",
        "DE" | "FR" | "IT" | "NL" | "ES" => "EUR",
        "JP" => "JPY",
        "CA" => "CAD",
        "AU" => "AUD",
        "MX" => "MXN",
        _ => "USD",
    }
}

/// An iTunes Search API `software` result.
fn result(w: &World, a: &App, country: &str) -> Value {
    let h = crate::metrics::mix_pub(&[w.seed, a.adam_id as u64, 0xa995]);
    let rating = 3.5 + (h % 150) as f64 / 100.0;
    let ratings = 50 + (h >> 8) % 250_000;
    json!({
        "wrapperType": "software", "kind": "software", "trackId": a.adam_id, "trackName": a.name,
        "trackCensoredName": a.name, "bundleId": format!("com.{}.{}", slug(&a.developer), slug(&a.name)),
        "artistId": 1_000_000_000 + (h >> 20) % 100_000_000, "artistName": a.developer, "sellerName": a.developer,
        "primaryGenreName": a.category, "genres": [a.category], "description": a.description,
        "artworkUrl60": a.icon_url.replace("512x512", "60x60"), "artworkUrl100": a.icon_url.replace("512x512", "100x100"),
        "artworkUrl512": a.icon_url,
        "trackViewUrl": format!("https://apps.apple.com/{}/app/id{}", country.to_lowercase(), a.adam_id),
        "averageUserRating": (rating * 100.0).round() / 100.0, "userRatingCount": ratings,
        "price": 0.0, "formattedPrice": "Free", "currency": currency(country),
        "supportedDevices": ["iPhone", "iPad"], "languageCodesISO2A": ["EN"], "contentAdvisoryRating": "4+",
    })
}

fn slug(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase()
}

/// The storefront a `country` parameter names (default US), if apps are sold there.
fn country(q: &HashMap<String, String>) -> String {
    q.get("country").map_or("US".into(), |c| c.to_uppercase())
}

/// The `term` parameter, trimmed and lower-cased.
fn term(q: &HashMap<String, String>) -> String {
    q.get("term")
        .map(|t| t.trim().to_lowercase())
        .unwrap_or_default()
}

fn sold(w: &World, a: &App, country: &str) -> bool {
    rules::storefronts(w, a.adam_id).contains(&country)
}

fn results(items: Vec<Value>) -> Json<Value> {
    Json(json!({ "resultCount": items.len(), "results": items }))
}

fn bad(message: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "errorMessage": message, "queryParameters": {} })),
    )
        .into_response()
}

/// `GET /appstore/lookup?id=1,2&country=us`.
async fn lookup(
    State(s): State<Arc<Sandbox>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let Some(ids) = q.get("id") else {
        return bad("id is required");
    };
    let Ok(ids) = ids
        .split(',')
        .map(|i| i.trim().parse::<i64>())
        .collect::<Result<Vec<_>, _>>()
    else {
        return bad("Invalid value(s) for key(s): [id]");
    };
    let w = s.world.read();
    let country = country(&q);
    let items = ids
        .iter()
        .filter_map(|id| w.apps.get(id))
        .filter(|a| sold(&w, a, &country))
        .map(|a| result(&w, a, &country))
        .collect();
    results(items).into_response()
}

/// `GET /appstore/search?term=…&country=…&entity=software&limit=…` (limit 1–200, 50).
async fn search(
    State(s): State<Arc<Sandbox>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let term = term(&q);
    if term.is_empty() {
        return results(vec![]).into_response();
    }
    if q.get("entity")
        .is_some_and(|e| e != "software" && e != "iPadSoftware")
    {
        return results(vec![]).into_response();
    }
    let limit = q
        .get("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .unwrap_or(50)
        .clamp(1, 200);
    let w = s.world.read();
    let country = country(&q);
    let words: Vec<&str> = term.split_whitespace().collect();
    let mut found: Vec<(u32, &App)> = w
        .apps
        .values()
        .filter(|a| sold(&w, a, &country))
        .filter_map(|a| {
            let name = a.name.to_lowercase();
            let text = format!(
                "{} {} {} {}",
                a.title, a.subtitle, a.description, a.category
            )
            .to_lowercase();
            let score: u32 = words
                .iter()
                .map(|w| {
                    if name.contains(w) {
                        3
                    } else if text.contains(w) {
                        1
                    } else {
                        0
                    }
                })
                .sum();
            (score > 0 && words.iter().all(|w| name.contains(w) || text.contains(w)))
                .then_some((score, a))
        })
        .collect();
    found.sort_by_key(|(score, a)| (std::cmp::Reverse(*score), a.adam_id));
    let items = found
        .into_iter()
        .take(limit)
        .map(|(_, a)| result(&w, a, &country))
        .collect();
    results(items).into_response()
}

#[derive(Serialize)]
struct Hints {
    title: &'static str,
    hints: Vec<Hint>,
}

#[derive(Serialize)]
struct Hint {
    term: String,
    priority: i64,
    url: String,
}

/// `GET /appstore/hints?clientApplication=Software&term=…`: up to 10 completions of the
/// term from the storefront's search vocabulary, most searched first.
async fn hints(
    State(s): State<Arc<Sandbox>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let term = term(&q);
    let front = headers
        .get("x-apple-store-front")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(['-', ',']).next())
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(143441);
    let w = s.world.read();
    let mut found: Vec<(u8, String)> = Vec::new();
    if !term.is_empty() {
        for c in 0..crate::world::words::CATEGORIES.len() {
            for t in vocabulary::terms(&w, c, 600) {
                if t.starts_with(&term) && !found.iter().any(|(_, x)| *x == t) {
                    found.push((popularity(w.seed ^ u64::from(front), &t), t));
                }
            }
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let hints = found
        .into_iter()
        .take(10)
        .map(|(p, t)| Hint {
            url: format!("https://search.itunes.apple.com/WebObjects/MZSearch.woa/wa/search?clientApplication=Software&term={}", t.replace(' ', "+")),
            priority: i64::from(p) * 100,
            term: t,
        })
        .collect();
    let mut body = Vec::new();
    if let Err(e) = plist::to_writer_xml(
        &mut body,
        &Hints {
            title: "Suggestions",
            hints,
        },
    ) {
        tracing::error!(error = %e, "sandbox could not write search hints");
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    ([(header::CONTENT_TYPE, "text/xml; charset=UTF-8")], body).into_response()
}
