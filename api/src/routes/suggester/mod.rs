//! The keyword suggester's collection routes (issue 22; contract: docs/api/suggester.md
//! "Collection"): start and poll a `collect-keywords` job
//! (`phrase/getListByShuffleTitlesPopularities/{adamId}`), stop it
//! (`phrase/suggesterSearches/one/stop/{id}`, a state-changing GET), the expected duration
//! (`timings/{type}/{countryCode}`) and the step-1 defaults (`keyword/default`).

mod collection;

use utoipa_axum::router::OpenApiRouter;

use crate::{middleware::state_changing_gets, route, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(collection::start))
        // Stopping changes state; the spec keeps its method.
        .merge(state_changing_gets(
            OpenApiRouter::new().routes(route!(collection::stop)),
        ))
        .routes(route!(collection::timing))
        .routes(route!(collection::defaults))
}
