//! Every API route, by area. Each area exposes `router()`; they are merged here.

pub mod accounts;
pub mod activity;
pub mod alerts;
pub mod attribution;
pub mod auth;
pub mod benchmarks;
pub mod campaigns;
pub mod catalog;
pub mod competitors;
pub mod creation;
pub mod edits;
pub mod estimates;
pub mod fields;
pub mod negative_lists;
pub mod options;
pub mod plans;
pub mod product_pages;
pub mod reports;
pub mod rule_runs;
pub mod rules;
pub mod suggester;
pub mod tags;
pub mod tasks;
pub mod team;
pub mod users;
pub mod workspaces;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

/// All documented `/api` routes.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(crate::openapi::base())
        .merge(auth::router())
        .merge(users::router())
        .merge(options::router())
        .merge(tasks::router())
        .merge(accounts::router())
        .merge(catalog::router())
        .merge(tags::router())
        .merge(reports::router())
        .merge(campaigns::router())
        .merge(fields::router())
        .merge(edits::router())
        .merge(suggester::router())
        .merge(competitors::router())
        .merge(estimates::router())
        .merge(negative_lists::router())
        .merge(product_pages::router())
        .merge(creation::router())
        .merge(rules::router())
        .merge(alerts::router())
        .merge(attribution::router())
        .merge(benchmarks::router())
        .merge(rule_runs::router())
        .merge(activity::router())
        .merge(team::router())
        .merge(plans::router())
        .merge(workspaces::router())
}
