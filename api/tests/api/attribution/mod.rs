//! Revenue and attribution through the real router on SQLite and PostgreSQL
//! (docs/api/attribution.md): connecting a provider and its postback URL shown once;
//! postbacks by GET (Adjust's macros) and by POST (the custom server, signed) stored once
//! however often they are replayed, and summed into the Conversions and Cohort columns of
//! the CAMPAIGNS, GROUPS and KEYWORDS reports; refusals that store nothing (an unknown,
//! rotated or another provider's token, a malformed field, a bad signature); the event
//! settings; test events; roles; rules and goal optimisation on conversions ([`rules`],
//! [`goals`]); and the AppsFlyer pull against its stand-in ([`pull`]).

mod conversions;
mod goals;
mod pull;
mod refusals;
mod rules;
mod settings;

use crate::common::{TestApp, TestResponse};
use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use serde_json::Value;

/// Connects `provider` for the workspace of `cookie`; answers the connect result.
async fn connect(app: &TestApp, cookie: &str, provider: &str) -> Value {
    let res = app
        .request(
            Method::POST,
            &format!("/api/attribution/integrations/{provider}"),
            None,
            Some(cookie),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"].clone()
}

/// The path of a setup URL (the server's public origin left out).
fn path_of(url: &str) -> String {
    let at = url.find("/api/").expect("an API URL");
    url[at..].to_string()
}

/// `template` (a macro provider's URL) with each `{macro}` replaced by its value in
/// `values`, every other macro left empty, as a provider fills what it has.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').expect("a closed macro") + open;
        let name = &rest[open + 1..close];
        let value = values
            .iter()
            .find(|(k, _)| *k == name)
            .map_or("", |(_, v)| *v);
        out.extend(form_urlencoded::byte_serialize(value.as_bytes()));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A postback as a provider's server sends it: no cookie, no web-app header.
async fn postback(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<(&str, Vec<u8>)>,
    headers: &[(&str, String)],
) -> TestResponse {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "localhost:8080");
    for (name, value) in headers {
        req = req.header(*name, value);
    }
    let req = match body {
        Some((content_type, bytes)) => req
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(bytes)),
        None => req.body(Body::empty()),
    }
    .unwrap();
    app.send(req).await
}

/// Unix seconds of 2026-11-`d` at `hour`:00 UTC.
fn nov(d: u8, hour: u8) -> i64 {
    let date = crate::reports::seed::day(d);
    date.with_hms(hour, 0, 0)
        .unwrap()
        .assume_utc()
        .unix_timestamp()
}

/// The rows stored in `table`.
async fn count(app: &TestApp, table: &str) -> i64 {
    use sqlx::Row;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) AS n FROM {table}"
    )))
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
    .try_get("n")
    .unwrap()
}
