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
use serde::Deserialize;
use serde_json::{Value, json};
use time::{Date, Duration, OffsetDateTime};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rec_query::RecQuery;
use super::render::timestamp;
use super::{MoneyIn, entity, rules};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::money::{minor_unit, money};
use crate::world::{AdGroup, Campaign, Id, World};

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

struct Budget;
struct TargetCpa;

impl Kind for Budget {
    const TYPE: &'static str = "DAILYCAP";
    const APPLIED: &'static str = "appliedDailyBudget";
    const FIELDS: &'static [&'static str] = &[
        "adAccountId",
        "dailyBudget",
        "suggestedDailyBudgetAmount",
        "expectedInstalls",
        "expectedSpend",
        "expectedCpa",
    ];

    fn suggest(w: &World, c: &Campaign) -> Option<(i64, Window)> {
        let win = window(w, c, 7);
        let currency = w.accounts[&c.ad_account_id].currency;
        let budget = c.daily_budget.current();
        (win.capped >= CAPPED_DAYS).then(|| (round(budget as f64 * 1.5, currency), win))
    }

    fn fields(w: &World, c: &Campaign, value: i64, win: &Window) -> Value {
        let currency = w.accounts[&c.ad_account_id].currency;
        let budget = c.daily_budget.current();
        let per_day = win.totals.total_installs() as f64 / win.days as f64;
        // More budget buys fewer installs per unit as it reaches less relevant traffic.
        let expected_installs = (per_day * (value as f64 / budget as f64).powf(0.8)).round() as i64;
        let expected_cpa = (expected_installs > 0).then(|| value / expected_installs);
        json!({
            "adAccountId": c.ad_account_id, "dailyBudget": money(budget, currency), "suggestedDailyBudgetAmount": money(value, currency),
            "expectedInstalls": expected_installs, "expectedSpend": money(value, currency),
            "expectedCpa": expected_cpa.map(|v| money(v, currency)),
        })
    }

    fn history(currency: &str, suggested: i64, applied: Option<i64>) -> Value {
        json!({
            "suggestedDailyBudgetAmount": money(suggested, currency),
            "appliedDailyBudgetAmount": applied.map(|v| money(v, currency)),
        })
    }

    fn apply(w: &mut World, _: Id, c: Id, value: i64) {
        entity::modify(w, c, |c: &mut Campaign, from| {
            c.daily_budget.set(from, value)
        });
    }
}

impl Kind for TargetCpa {
    const TYPE: &'static str = "TCPA";
    const APPLIED: &'static str = "appliedTargetCPA";
    const FIELDS: &'static [&'static str] = &["recommendedTargetCPA", "bidStrategy"];

    fn suggest(w: &World, c: &Campaign) -> Option<(i64, Window)> {
        let win = window(w, c, 30);
        let installs = win.totals.total_installs();
        let currency = w.accounts[&c.ad_account_id].currency;
        (installs >= MIN_INSTALLS).then(|| {
            let cpa = win.totals.spend as f64 / installs as f64;
            (round(cpa * 1.1, currency), win)
        })
    }

    fn fields(w: &World, c: &Campaign, value: i64, _: &Window) -> Value {
        let currency = w.accounts[&c.ad_account_id].currency;
        json!({
            "recommendedTargetCPA": money(value, currency),
            "bidStrategy": { "bidStrategyType": "MANUAL_CPT", "bidStrategyGoal": "TAP", "bidAmount": null },
        })
    }

    fn history(currency: &str, suggested: i64, applied: Option<i64>) -> Value {
        json!({
            "recommendedTargetCPA": money(suggested, currency),
            "appliedTargetCPA": applied.map(|v| money(v, currency)),
        })
    }

    fn apply(w: &mut World, account: Id, c: Id, value: i64) {
        let groups: Vec<Id> = w
            .ad_groups
            .values()
            .filter(|g| g.campaign_id == c && g.ad_account_id == account && !g.life.deleted())
            .map(|g| g.id)
            .collect();
        for g in groups {
            entity::modify(w, g, |g: &mut AdGroup, _| g.cpa_cap = Some(value));
        }
    }
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

/// `ApplyDailyCapRecommendation` / `ApplyTargetCpaRecommendation`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Decision {
    id: String,
    applied_daily_budget: Option<MoneyIn>,
    #[serde(rename = "appliedTargetCPA")]
    applied_target_cpa: Option<MoneyIn>,
    #[serde(rename = "historyId")]
    _history_id: Option<String>,
    promoted_object_id: String,
    promoted_object_type: String,
}

async fn decide<K: Kind, const APPLY: bool>(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<Decision>,
) -> Result<Json<Value>, ApiError> {
    if b.promoted_object_type != "APPSTORE_APP" {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "promotedObjectType",
            "promotedObjectType must be APPSTORE_APP",
        ));
    }
    let not_live = || {
        ApiError::invalid(
            "INVALID_VALUE",
            "promotedObjectId",
            "promotedObjectId must name a live campaign of this ad account",
        )
    };
    let account = ctx.0;
    let (wanted, named) = (b.id.clone(), b.promoted_object_id.clone());
    let snapshot = s.world.read();
    // The recommendation is derived from days of served metrics: on a snapshot, off the
    // async threads, so the write below holds the world only to write.
    let (cid, suggested, win) = super::crud::off_thread(move || {
        let campaign = named
            .parse::<Id>()
            .ok()
            .and_then(|id| entity::live::<Campaign>(&snapshot, account, id).ok())
            .ok_or_else(not_live)?;
        let (suggested, win) = K::suggest(&snapshot, campaign)
            .filter(|(v, _)| id_of::<K>(campaign.id, *v) == wanted)
            .ok_or_else(|| ApiError::not_found("recommendation", &wanted))?;
        Ok((campaign.id, suggested, win))
    })
    .await?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    let campaign = entity::live::<Campaign>(&w, ctx.0, cid).map_err(|_| not_live())?;
    let (name, adam) = (campaign.name.clone(), campaign.adam_id);
    let mut decisions = s.recommendations.by_id.lock();
    if let Some((state, _, _)) = decisions.get(&b.id) {
        return Err(ApiError::invalid(
            "INVALID_STATE",
            "id",
            format!("recommendation {} is already {state}", b.id),
        ));
    }
    let applied = if APPLY {
        let field = K::APPLIED;
        let (given, other) = if field == Budget::APPLIED {
            (&b.applied_daily_budget, &b.applied_target_cpa)
        } else {
            (&b.applied_target_cpa, &b.applied_daily_budget)
        };
        if other.is_some() {
            return Err(ApiError::invalid(
                "UNKNOWN_FIELD",
                "body",
                format!("this recommendation takes {field}"),
            ));
        }
        let value = match given {
            Some(m) => m.micros(field, currency)?,
            None => suggested,
        };
        let min = if K::TYPE == Budget::TYPE {
            rules::min_daily_budget(currency)
        } else {
            rules::min_bid(currency)
        };
        let value = rules::at_least(value, min, field, currency)?;
        w.begin_txn();
        K::apply(&mut w, ctx.0, cid, value);
        Some(value)
    } else {
        None
    };
    let now = w.now;
    let state = if APPLY { "APPLIED" } else { "DISMISSED" };
    decisions.insert(b.id.clone(), (state, now, applied));
    s.world.journal_decision(&crate::journal::DecisionLine {
        id: b.id.clone(),
        state: state.to_string(),
        time: now,
        applied,
    });
    let made = w.today.midnight().assume_utc();
    let row = json!({
        "recommendationId": b.id, "recommendationType": K::TYPE, "promotedObjectId": adam.to_string(),
        "promotedObjectType": "APPSTORE_APP", "campaignId": cid, "campaignName": name, "state": state,
        "status": "ENABLED", "creationTime": timestamp(made), "modificationTime": timestamp(now),
        "appliedTime": APPLY.then(|| timestamp(now)), "expirationTime": timestamp(made + Duration::days(7)),
        "rank": 1,
    });
    let row = merge(
        merge(row, measured(currency, &win.totals)),
        K::history(currency, suggested, applied),
    );
    Ok(Json(
        json!({ "result": [row], "pagination": { "offset": 0, "pageSize": 1, "totalCount": 1 }, "error": null }),
    ))
}
