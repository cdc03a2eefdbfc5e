//! The two kinds of recommendation: daily budgets for campaigns that spent their budget on
//! enough of the last 7 days, and target CPAs for campaigns with enough installs in the
//! last 30 — how each is suggested, rendered in rows and history, and applied.

use serde_json::{Value, json};

use super::{CAPPED_DAYS, Kind, MIN_INSTALLS, Window, round, window};
use crate::api::entity;
use crate::world::money::money;
use crate::world::{AdGroup, Campaign, Id, World};

pub(super) struct Budget;
pub(super) struct TargetCpa;

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
