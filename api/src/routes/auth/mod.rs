//! Authentication: accounts, sessions, password recovery.

pub mod recovery;
pub mod sign_in;
pub mod user;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{middleware::state_changing_gets, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sign_in::register))
        .routes(routes!(sign_in::login))
        .routes(routes!(sign_in::relogin))
        .routes(routes!(sign_in::me))
        .routes(routes!(recovery::check_code))
        .routes(routes!(recovery::change_password_by_code))
        .routes(routes!(recovery::change_password))
        // GET routes that change state (the spec keeps their method).
        .merge(state_changing_gets(
            OpenApiRouter::new()
                .routes(routes!(sign_in::logout))
                .routes(routes!(recovery::recovery_password)),
        ))
}
