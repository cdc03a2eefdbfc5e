//! The OpenAPI document served at `/api/openapi.json`.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(title = "Searchdeck API", description = "The HTTP API of Searchdeck. Every answer uses one envelope: \
        `{status, message, result}` on success, `{status, message, errors, meta}` on failure. \
        Sessions are carried by the HttpOnly `sd_session` cookie."),
    tags(
        (name = "auth", description = "Accounts, sessions and password recovery"),
        (name = "users", description = "The caller's own values"),
        (name = "options", description = "Options saved per user"),
        (name = "tasks", description = "Background tasks"),
        (name = "system", description = "Process health"),
    )
)]
struct ApiDoc;

/// The document before routes add their paths.
pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
