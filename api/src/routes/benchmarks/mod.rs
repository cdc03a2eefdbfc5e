//! Benchmarks (docs/api/benchmarks.md; docs/product.md#7-the-calls-it-makes `benchmarks`):
//! per app (App Store id) and storefront, the targets a workspace sets — cost per install
//! ([`installs`]), cost per event of a named MMP event ([`events`]), ROAS per cohort window
//! ([`revenues`]) — read by any member and written by editors, each PATCH in one
//! transaction; the workspace's apps they are set for ([`apps`]); and published reference
//! figures beside them ([`reference`]), picked by the app's App Store genre.

mod apps;
mod events;
mod installs;
mod reference;
mod revenues;

use std::{collections::HashMap, time::Duration};

use searchdeck_common::{
    FieldError, countries,
    ids::now_ms,
    money::{self, Sign},
    store::{self, benchmarks::WorkspaceApp},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

pub use reference::ReferenceFigure;

use crate::{
    access::parse_app_store_id,
    error::{ApiError, ApiResult},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(apps::list))
        .routes(route!(installs::get_all))
        .routes(route!(installs::set_many))
        .routes(route!(events::get_all))
        .routes(route!(events::set_many))
        .routes(route!(revenues::get_all))
        .routes(route!(revenues::set_many))
}

/// Most targets one PATCH sets.
pub const ITEMS_MAX: usize = 1000;
/// Longest event name.
pub const EVENT_NAME_MAX: usize = 200;
/// How long a looked-up genre is trusted (ms): a week.
const GENRE_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
/// Longest wait for the App Store's lookup of a genre.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(3);

/// What a GET answers: the app as the workspace knows it, its targets, and the published
/// figures for its category.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Benchmarks<T> {
    /// The synced name (null: no campaign group of the workspace has the app).
    pub app_name: Option<String>,
    /// The currency of money targets: the app's campaign group's (null: not an app of the
    /// workspace, which then has no targets for it).
    pub currency: Option<String>,
    /// The App Store genre (`primaryGenreName`) that picks the reference figures; null when
    /// the App Store did not say.
    pub category: Option<String>,
    /// The workspace's targets, "all countries" (`country` null) first.
    pub items: Vec<T>,
    /// Published figures for the category, shown beside the targets — never the
    /// workspace's data.
    pub reference: Vec<ReferenceFigure>,
}

/// The workspace's app `adam_id`, if it is one.
async fn workspace_app(
    state: &AppState,
    workspace_id: &str,
    adam_id: i64,
) -> ApiResult<Option<WorkspaceApp>> {
    Ok(store::benchmarks::apps(&state.db.pool, workspace_id)
        .await?
        .into_iter()
        .find(|a| a.adam_id == adam_id))
}

/// The App Store genre of `adam_id`: the stored one while fresh, else looked up (US
/// storefront) and stored. An App Store that does not answer leaves the genre as last known.
async fn category(state: &AppState, adam_id: i64) -> ApiResult<Option<String>> {
    let pool = &state.db.pool;
    let known = store::benchmarks::genre(pool, adam_id).await?;
    let now = now_ms();
    if let Some((genre, at)) = &known
        && now - at < GENRE_TTL_MS
    {
        return Ok(genre.clone());
    }
    let ids = [adam_id];
    let lookup = state.provider.app_store.lookup(&ids, "US");
    match tokio::time::timeout(LOOKUP_TIMEOUT, lookup).await {
        Ok(Ok(found)) => {
            let genre = found
                .into_iter()
                .find(|a| a.track_id == adam_id)
                .and_then(|a| a.primary_genre_name);
            store::benchmarks::set_genre(pool, adam_id, genre.as_deref(), now).await?;
            Ok(genre)
        }
        Ok(Err(e)) => {
            tracing::warn!(adam_id, error = %e, "benchmarks: App Store lookup failed");
            Ok(known.and_then(|(g, _)| g))
        }
        Err(_) => {
            tracing::warn!(adam_id, "benchmarks: App Store lookup timed out");
            Ok(known.and_then(|(g, _)| g))
        }
    }
}

/// The answer of a GET for app `adam_id` with `items` and the figures of `table`.
async fn answer<T>(
    state: &AppState,
    workspace_id: &str,
    adam_id: i64,
    items: Vec<T>,
    table: &[reference::Figure],
) -> ApiResult<Benchmarks<T>> {
    let app = workspace_app(state, workspace_id, adam_id).await?;
    let category = if table.is_empty() {
        None
    } else {
        category(state, adam_id).await?
    };
    Ok(Benchmarks {
        app_name: app.as_ref().and_then(|a| a.app_name.clone()),
        currency: app.map(|a| currency_of(a.currency.as_deref()).to_string()),
        category: category.clone(),
        items,
        reference: reference::for_category(table, category.as_deref()),
    })
}

/// The currency of an app's money targets: its campaign group's, USD when the sync has not
/// said.
fn currency_of(currency: Option<&str>) -> &str {
    currency.unwrap_or("USD")
}

/// What a PATCH's rows are checked against: the workspace's apps by id.
struct Checker {
    apps: HashMap<i64, WorkspaceApp>,
    errors: Vec<FieldError>,
}

impl Checker {
    async fn of(state: &AppState, workspace_id: &str) -> ApiResult<Checker> {
        let apps = store::benchmarks::apps(&state.db.pool, workspace_id).await?;
        Ok(Checker {
            apps: apps.into_iter().map(|a| (a.adam_id, a)).collect(),
            errors: Vec::new(),
        })
    }

    fn fail(&mut self, field: String, message: &str) {
        self.errors.push(FieldError::new(field, message));
    }

    /// Row `i`'s app: one of the workspace's; its id and money currency.
    fn app(&mut self, i: usize, raw: &str) -> Option<(i64, String)> {
        let field = format!("items.{i}.adamId");
        let Some(id) = parse_app_store_id(raw) else {
            self.fail(field, crate::access::NOT_AN_APP_STORE_ID);
            return None;
        };
        match self.apps.get(&id) {
            Some(app) => Some((id, currency_of(app.currency.as_deref()).to_string())),
            None => {
                self.fail(field, "Not an app of the workspace's campaign groups");
                None
            }
        }
    }

    /// Row `i`'s storefront: `""` for all countries (absent, null or empty), else a served
    /// country's code.
    fn country(&mut self, i: usize, raw: Option<&str>) -> Option<String> {
        match raw.map(str::trim).filter(|c| !c.is_empty()) {
            None => Some(String::new()),
            Some(code) => match countries::find(code) {
                Some(c) => Some(c.code.clone()),
                None => {
                    self.fail(
                        format!("items.{i}.country"),
                        "Apple Ads does not serve this country or region",
                    );
                    None
                }
            },
        }
    }

    /// Row `i`'s money `field` in `currency` (null clears the target): micros, at least 0,
    /// with at most the currency's decimals; a `sent` currency must be the app's.
    fn money(
        &mut self,
        i: usize,
        field: &str,
        label: &str,
        raw: Option<&str>,
        sent: Option<&str>,
        currency: &str,
    ) -> Option<Option<i64>> {
        if let Some(sent) = sent
            && !sent.eq_ignore_ascii_case(currency)
        {
            self.fail(
                format!("items.{i}.currency"),
                &format!("Targets of this app are in {currency}, its campaign group's currency"),
            );
            return None;
        }
        let Some(text) = raw else { return Some(None) };
        let name = format!("items.{i}.{field}");
        match money::parse_text(&name, label, text, Some(currency), Sign::NonNegative) {
            Ok(amount) => match money::micros(amount) {
                Some(m) => Some(Some(m)),
                None => {
                    self.fail(name, &format!("{label} is too large"));
                    None
                }
            },
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }

    /// Refuses row `i` when an earlier row named the same target (`key`).
    fn once(&mut self, i: usize, seen: &mut Vec<String>, key: String) {
        if seen.contains(&key) {
            self.fail(
                format!("items.{i}.country"),
                "This target is already set by an earlier item of the request",
            );
        } else {
            seen.push(key);
        }
    }

    /// The collected errors as one 400, if any.
    fn finish(self) -> ApiResult<()> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::validation(self.errors))
        }
    }
}

/// A PATCH's list: 1 to [`ITEMS_MAX`] rows.
fn check_len<T>(items: &[T]) -> ApiResult<()> {
    if items.is_empty() {
        return Err(ApiError::field("items", crate::domain::REQUIRED));
    }
    if items.len() > ITEMS_MAX {
        return Err(ApiError::field(
            "items",
            &format!("At most {ITEMS_MAX} targets per request"),
        ));
    }
    Ok(())
}

/// `country` as answered: null for the "all countries" row.
fn country_out(country: String) -> Option<String> {
    (!country.is_empty()).then_some(country)
}

/// Micros as an exact decimal string (`"1.5"`).
fn decimal(micros: i64) -> String {
    crate::money::text(Some(micros)).unwrap_or_default()
}

/// Stores `rows` of `kind` in one transaction (a row `(target, false)` clears its target)
/// and answers the stored targets of the apps they name (of `event_name` only, when given).
async fn write(
    state: &AppState,
    workspace_id: &str,
    user_id: &str,
    kind: store::benchmarks::Kind,
    rows: &[(store::benchmarks::Target, bool)],
    event_name: Option<&str>,
) -> ApiResult<Vec<store::benchmarks::Target>> {
    let mut tx = state.db.begin_write().await?;
    for (target, set) in rows {
        if *set {
            store::benchmarks::put(&mut *tx, workspace_id, kind, target, user_id).await?;
        } else {
            store::benchmarks::remove(&mut *tx, workspace_id, kind, target).await?;
        }
    }
    tx.commit().await?;
    let mut apps: Vec<i64> = rows.iter().map(|(t, _)| t.adam_id).collect();
    apps.sort_unstable();
    apps.dedup();
    let mut stored = Vec::new();
    for adam_id in apps {
        stored.extend(
            store::benchmarks::targets(&state.db.pool, workspace_id, kind, adam_id, event_name)
                .await?,
        );
    }
    Ok(stored)
}
