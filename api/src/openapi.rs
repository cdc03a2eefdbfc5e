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
