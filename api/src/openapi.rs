//! The OpenAPI document served at `/api/openapi.json`.
//!
//! Security requirements and the 401/403/404 answers of guarded routes are not written
//! here or in the path macros: [`crate::route!`] derives them from each handler's guard
//! type (see [`crate::access`]). This module declares the session-cookie scheme and the error body they name.

use utoipa::{
    Modify, OpenApi,
    openapi::security::{ApiKey, ApiKeyValue, SecurityScheme},
};

use crate::{
    access::SECURITY_SCHEME,
    error::{ErrorBody, FieldError},
    session::COOKIE,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Searchdeck API", description = "The HTTP API of Searchdeck. Every answer uses one envelope: \
        `{status, message, result}` on success, `{status, message, errors, meta}` on failure. \
        Sessions are carried by the HttpOnly `sd_session` cookie."),
    components(schemas(ErrorBody, FieldError)),
    modifiers(&SessionCookie),
    tags(
        (name = "auth", description = "Accounts, sessions and password recovery"),
        (name = "users", description = "The caller's own values"),
        (name = "options", description = "Options saved per user"),
        (name = "tasks", description = "Background tasks"),
        (name = "campaigns", description = "Campaigns, ad groups, change history, totals and forecasts of the report area"),
        (name = "edits", description = "Quick edits of campaigns, ad groups and keywords through Apple Ads"),
        (name = "system", description = "Process health"),
    )
)]
struct ApiDoc;

/// Declares the `session` security scheme: the HttpOnly session cookie.
struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            SECURITY_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                COOKIE,
                "The session token set by login and register (HttpOnly, SameSite=Lax)",
            ))),
        );
    }
}

/// The document before routes add their paths.
pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// Completes the generated document with the answers every route shares, so each
/// operation lists every status it can give: 400 for a missing or malformed body or
/// parameter, 413 for a body over the limit, 403 for a cross-site write, 500.
pub fn complete(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use crate::middleware::{CROSS_SITE_REFUSED, add_response, operations};
    for (path, item) in doc.paths.paths.iter_mut() {
        if !path.starts_with("/api") {
            continue;
        }
        for (method, op) in operations(item) {
            if let Some(body) = op.request_body.as_mut() {
                body.required = Some(utoipa::openapi::Required::True);
                add_response(op, 400, "Missing or invalid body");
                add_response(op, 413, crate::extract::BODY_TOO_LARGE);
            }
            if op.parameters.as_ref().is_some_and(|p| !p.is_empty()) {
                add_response(op, 400, "Invalid parameters");
            }
            if method != "get" {
                add_response(op, 403, CROSS_SITE_REFUSED);
            }
            add_response(op, 500, crate::error::INTERNAL_MESSAGE);
        }
    }
    doc
}
