//! Recommendations, derived from the simulation's served numbers:
//! `/recommendations/daily-budgets/{query,apply,dismiss}` for campaigns that spent their
//! daily budget on at least [`CAPPED_DAYS`] of the last 7 days (suggesting 1.5 × the
//! budget), and `/recommendations/target-cpas/{query,apply,dismiss}` for campaigns with at
//! least [`MIN_INSTALLS`] installs in the last 30 days (suggesting 1.1 × their average
//! CPA). A recommendation's id names its campaign and the value it was made for, so it
//! stays while those hold. Applying writes through the API's recorded writes: a daily
//! budget becomes the campaign's; a target CPA becomes the CPA cap of its live ad groups.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use parking_lot::Mutex;
use serde_json::{Value, json};
use time::{Date, Duration, OffsetDateTime};

mod decide;
mod kinds;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rec_query::RecQuery;
use super::render::timestamp;
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::money::{minor_unit, money};
use crate::world::{Campaign, Id, World};
use decide::decide;
use kinds::{Budget, TargetCpa};

/// Capped days (of the last 7) that earn a daily budget recommendation.
pub const CAPPED_DAYS: usize = 3;
/// Installs (last 30 days) that earn a target CPA recommendation.
pub const MIN_INSTALLS: u64 = 10;

/// A decision on a recommendation: its new state, when, and the value applied.
type Decided = (&'static str, OffsetDateTime, Option<i64>);

/// What happened to recommendations: applied or dismissed, and when.
#[derive(Default)]
pub struct Decisions {
    by_id: Mutex<HashMap<String, Decided>>,
}

impl Decisions {
    /// The decisions read back from the journal.
    pub fn restore(lines: Vec<crate::journal::DecisionLine>) -> Self {
        let by_id = lines
            .into_iter()
            .map(|d| {
                let state = if d.state == "APPLIED" {
                    "APPLIED"
                } else {
                    "DISMISSED"
                };
                (d.id, (state, d.time, d.applied))
            })
            .collect();
        Decisions {
            by_id: Mutex::new(by_id),
        }
    }
}

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(
            "/recommendations/daily-budgets/query",
            post(query::<Budget>),
        )
        .route(
            "/recommendations/daily-budgets/apply",
            post(decide::<Budget, true>),
        )
        .route(
            "/recommendations/daily-budgets/dismiss",
            post(decide::<Budget, false>),
        )
        .route(
            "/recommendations/target-cpas/query",
            post(query::<TargetCpa>),
        )
        .route(
            "/recommendations/target-cpas/apply",
            post(decide::<TargetCpa, true>),
        )
        .route(
            "/recommendations/target-cpas/dismiss",
            post(decide::<TargetCpa, false>),
        )
}

/// One campaign's served totals over a window, with how many days spent the budget.
pub(super) struct Window {
    pub(super) totals: Totals,
    capped: usize,
    days: i64,
}

pub(super) fn window(w: &World, c: &Campaign, days: i64) -> Window {
    let mut sim = Simulation::new(w);
    let mut totals = Totals::default();
    let mut capped = 0;
    let today = w.account_now(c.ad_account_id).today;
    for back in 0..days {
        let day: Date = today - Duration::days(back);
        let mut t = Totals::default();
        for (_, k) in sim.campaign_day(c.id, day) {
            t.add(&k);
        }
        let budget = c.daily_budget.at(day);
        if budget > 0 && t.spend * 100 >= budget * 95 {
            capped += 1;
        }
        totals.add(&t);
    }
    Window {
        totals,
        capped,
        days,
    }
}

fn round(micros: f64, currency: &str) -> i64 {
    let minor = minor_unit(currency) as f64;
    ((micros / minor).round() * minor) as i64
}

/// A kind of recommendation: how it is derived, rendered and applied.
trait Kind: Send + Sync + 'static {
    /// Its id prefix and `recommendationType`.
    const TYPE: &'static str;
    /// The request-body field carrying an applied value other than the suggested one.
    const APPLIED: &'static str;
    /// Row fields particular to the kind (beside [`COMMON`]).
    const FIELDS: &'static [&'static str];
    /// The suggested value for campaign `c`, if it earns one.
    fn suggest(w: &World, c: &Campaign) -> Option<(i64, Window)>;
    /// Fields particular to the kind in query rows.
    fn fields(w: &World, c: &Campaign, value: i64, win: &Window) -> Value;
    /// History fields particular to the kind.
    fn history(currency: &str, suggested: i64, applied: Option<i64>) -> Value;
    /// Writes `value` (recorded in the change history).
    fn apply(w: &mut World, account: Id, c: Id, value: i64);
}

/// Row fields every recommendation has.
const COMMON: &[&str] = &[
    "id",
    "recommendationType",
    "promotedObjectId",
    "promotedObjectType",
    "campaignId",
    "campaignName",
    "state",
    "status",
    "creationTime",
    "modificationTime",
    "expirationTime",
    "installs",
    "spend",
    "impression",
    "taps",
    "averageCPA",
    "averageCPT",
    "ttr",
];

fn id_of<K: Kind>(c: Id, value: i64) -> String {
    format!("{}-{c}-{value}", K::TYPE)
}

/// The measured fields every recommendation row carries.
fn measured(currency: &str, t: &Totals) -> Value {
    let installs = t.total_installs();
    json!({
        "installs": installs, "spend": money(t.spend, currency), "impression": t.impressions, "taps": t.taps,
        "averageCPA": (installs > 0).then(|| money(t.spend / installs as i64, currency)),
        "averageCPT": (t.taps > 0).then(|| money(t.spend / t.taps as i64, currency)),
        "ttr": if t.impressions > 0 { t.taps as f64 / t.impressions as f64 } else { 0.0 },
    })
}

fn merge(mut into: Value, from: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (into.as_object_mut(), from) {
        a.extend(b);
    }
    into
}

/// The campaigns the query's promoted objects name (all of an app's, or the one named).
fn campaigns<'w>(w: &'w World, account: Id, q: &RecQuery) -> Result<Vec<&'w Campaign>, ApiError> {
    let promoted = q.promoted(w, account)?;
    Ok(w.campaigns
        .values()
        .filter(|c| c.ad_account_id == account && !c.life.deleted())
        .filter(|c| promoted.iter().any(|p| p.covers(c)))
        .collect())
}

async fn query<K: Kind>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<RecQuery>,
) -> Result<Json<Value>, ApiError> {
    // Every campaign's last 7 or 30 served days: off the async threads.
    super::crud::off_thread(move || rows::<K>(&s, ctx.0, q)).await
}

fn rows<K: Kind>(s: &Sandbox, account: Id, q: RecQuery) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let currency = w.accounts[&account].currency;
    let made = w.today.midnight().assume_utc();
    let decisions = s.recommendations.by_id.lock();
    let mut rows = Vec::new();
    for c in campaigns(&w, account, &q)? {
        let Some((value, win)) = K::suggest(&w, c) else {
            continue;
        };
        let id = id_of::<K>(c.id, value);
        let (state, modified) = decisions
            .get(&id)
            .map_or(("AVAILABLE", made), |d| (d.0, d.1));
        let row = json!({
            "id": id, "recommendationType": K::TYPE,
            "promotedObjectId": c.adam_id.to_string(), "promotedObjectType": "APPSTORE_APP",
            "campaignId": c.id, "campaignName": c.name, "state": state, "status": "ENABLED",
            "creationTime": timestamp(made), "modificationTime": timestamp(modified),
            "expirationTime": timestamp(made + Duration::days(7)),
        });
        let row = merge(
            merge(row, measured(currency, &win.totals)),
            K::fields(&w, c, value, &win),
        );
        rows.push(row);
    }
    let fields: Vec<&str> = COMMON.iter().chain(K::FIELDS).copied().collect();
    Ok(Json(q.answer(rows, &fields, &[("campaignId", false)])?))
}
