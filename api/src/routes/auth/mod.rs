//! Authentication: accounts, sessions, password recovery.

pub mod recovery;
pub mod sign_in;

use utoipa_axum::router::OpenApiRouter;

use crate::{middleware::state_changing_gets, route, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(sign_in::register))
        .routes(route!(sign_in::login))
        .routes(route!(sign_in::relogin))
        .routes(route!(sign_in::me))
        .routes(route!(recovery::check_code))
        .routes(route!(recovery::change_password_by_code))
        .routes(route!(recovery::change_password))
        // GET routes that change state (the spec keeps their method).
        .merge(state_changing_gets(
            OpenApiRouter::new()
                .routes(route!(sign_in::logout))
                .routes(route!(recovery::recovery_password)),
        ))
}
