//! The plan derived from a workspace's purchases and last month's ad spend
//! (docs/product.md#4-plans, free-trial status; docs/api/plans.md "The plan"): a pure function of
//! the purchases, the spend in US dollars and the clock, so every boundary is tested with a fixed
//! `now`.
//!
//! The newest purchase in force decides (started, and before its end, or a paid plan whose
//! payment failed within the 168 h billing grace); without one the workspace is free, on
//! `pro_free` while last month's spend is at most $10,000 and `pro_limited` above.

use rust_decimal::Decimal;
use serde::Serialize;
use utoipa::ToSchema;

use super::Plan;

/// One hour in milliseconds.
pub const HOUR_MS: i64 = 3_600_000;
/// One day in milliseconds.
pub const DAY_MS: i64 = 24 * HOUR_MS;
/// The Pro trial: 14 days without a card (docs/product.md#9-plans-and-trials).
pub const PRO_TRIAL_MS: i64 = 14 * DAY_MS;
/// The Growth trial: 30 days (docs/product.md#9-plans-and-trials).
pub const GROWTH_TRIAL_MS: i64 = 30 * DAY_MS;
/// The billing grace after a failed payment's plan end (docs/product.md#9-banner-and-modal-windows:
/// 168 h).
pub const BILLING_GRACE_MS: i64 = 168 * HOUR_MS;

/// Pro is free while last month's spend is at most this many US dollars
/// (docs/product.md#9-plans-and-trials).
pub fn free_spend_limit_usd() -> Decimal {
    Decimal::from(10_000)
}

pub use crate::store::purchases::{Purchase, TrialKind};

/// Whether `p` is the workspace's plan at `now`: started, and before its end, or a paid
/// plan whose payment failed within the billing grace after it.
pub fn in_force(p: &Purchase, now: i64) -> bool {
    if p.started_at > now {
        return false;
    }
    match p.off_account_time {
        None => true,
        Some(end) if now < end => true,
        Some(end) => p.full && !p.trial && p.payment_failed && now < end + BILLING_GRACE_MS,
    }
}

/// Whether `p` names the free plan (no paid plan, no trial).
fn is_free(p: &Purchase) -> bool {
    p.free || p.name.eq_ignore_ascii_case("free")
}

/// Spec §4's free-trial status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum FreeTrialStatus {
    TrialStarted,
    TrialEnded,
    NoTrial,
}

/// The status of the purchase that ended when the workspace fell back to a free plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PreviousStatus {
    /// A paid plan ended (with a failed payment: billing blocked).
    Full,
    /// A trial ended.
    Trial,
}

/// Where a workspace stands at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub plan: Plan,
    pub free_trial: FreeTrialStatus,
    pub previous_status: Option<PreviousStatus>,
    /// The purchase in force, if any.
    pub current: Option<Purchase>,
    /// When on a free plan: the newest paid plan or trial, ended.
    pub ended: Option<Purchase>,
    /// Last month's spend in US dollars the free plans were decided by (zero when
    /// `plan::standing` did not need to read it: a paid plan or trial in force).
    pub spend_usd: Decimal,
}

/// The plan of a free workspace by last month's spend.
fn free_plan(spend_usd: Decimal) -> Plan {
    if spend_usd <= free_spend_limit_usd() {
        Plan::ProFree
    } else {
        Plan::ProLimited
    }
}

/// The plan a purchase in force gives (the list of docs/product.md#4-plans, in this order).
fn plan_of(p: &Purchase, spend_usd: Decimal) -> Plan {
    if p.name.eq_ignore_ascii_case("agency") {
        Plan::Agency
    } else if p.organization && p.full {
        if p.trial {
            Plan::GrowthTrial
        } else {
            Plan::Growth
        }
    } else if p.trial() == Some(TrialKind::Pre) {
        Plan::ProFreeTrial
    } else if p.trial && !p.organization {
        Plan::ProTrial
    } else if p.full && !p.organization {
        Plan::Pro
    } else {
        free_plan(spend_usd)
    }
}

/// The workspace's standing at `now` from its `purchases` (any order) and last month's
/// spend in US dollars.
pub fn derive(purchases: &[Purchase], spend_usd: Decimal, now: i64) -> Standing {
    let started = || purchases.iter().filter(|p| p.started_at <= now);
    let current = started()
        .filter(|p| in_force(p, now))
        .max_by(|a, b| (a.started_at, &a.id).cmp(&(b.started_at, &b.id)))
        .cloned();
    let plan = current
        .as_ref()
        .map_or_else(|| free_plan(spend_usd), |p| plan_of(p, spend_usd));
    let free_trial = if current.as_ref().and_then(Purchase::trial).is_some() {
        FreeTrialStatus::TrialStarted
    } else if started().any(|p| p.trial().is_some()) {
        FreeTrialStatus::TrialEnded
    } else {
        FreeTrialStatus::NoTrial
    };
    let ended = matches!(plan, Plan::ProFree | Plan::ProLimited)
        .then(|| {
            started()
                .filter(|p| !is_free(p) && !in_force(p, now))
                .max_by(|a, b| (a.started_at, &a.id).cmp(&(b.started_at, &b.id)))
                .cloned()
        })
        .flatten();
    let previous_status = ended.as_ref().map(|p| {
        if p.trial {
            PreviousStatus::Trial
        } else {
            PreviousStatus::Full
        }
    });
    Standing {
        plan,
        free_trial,
        previous_status,
        current,
        ended,
        spend_usd,
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn usd(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn purchase(name: &str) -> Purchase {
        Purchase {
            id: format!("p-{name}"),
            name: name.into(),
            free: false,
            trial: false,
            full: false,
            organization: false,
            trial_kind: None,
            suggester: false,
            payment_failed: false,
            started_at: NOW - DAY_MS,
            off_account_time: None,
        }
    }

    fn pro_trial(end: i64) -> Purchase {
        Purchase {
            trial: true,
            trial_kind: Some(TrialKind::Pro),
            off_account_time: Some(end),
            started_at: end - PRO_TRIAL_MS,
            ..purchase("pro")
        }
    }

    fn growth_trial(end: i64) -> Purchase {
        Purchase {
            trial: true,
            full: true,
            organization: true,
            trial_kind: Some(TrialKind::Growth),
            off_account_time: Some(end),
            started_at: end - GROWTH_TRIAL_MS,
            ..purchase("growth")
        }
    }

    fn plan(purchases: &[Purchase], spend: &str) -> Plan {
        derive(purchases, usd(spend), NOW).plan
    }

    #[test]
    fn free_plans_follow_last_months_spend_with_the_boundary_inclusive() {
        let free = Purchase {
            free: true,
            ..purchase("pro")
        };
        for (purchases, spend, want) in [
            (vec![], "0", Plan::ProFree),
            (vec![], "10000", Plan::ProFree),
            (vec![], "10000.00", Plan::ProFree),
            (vec![], "10000.01", Plan::ProLimited),
            (vec![], "250000", Plan::ProLimited),
            (vec![free.clone()], "10000", Plan::ProFree),
            (vec![free.clone()], "10000.000001", Plan::ProLimited),
            (vec![purchase("free")], "9999.99", Plan::ProFree),
            (vec![purchase("free")], "10000.01", Plan::ProLimited),
        ] {
            assert_eq!(plan(&purchases, spend), want, "{purchases:?} {spend}");
        }
    }

    #[test]
    fn each_purchase_gives_the_spec_plan_whatever_the_spend() {
        let full = Purchase {
            full: true,
            ..purchase("pro")
        };
        let growth = Purchase {
            organization: true,
            full: true,
            ..purchase("growth")
        };
        let pre = Purchase {
            trial: true,
            trial_kind: Some(TrialKind::Pre),
            off_account_time: Some(NOW + DAY_MS),
            ..purchase("pro")
        };
        let agency = Purchase {
            organization: true,
            full: true,
            ..purchase("agency")
        };
        for spend in ["0", "10000", "10000.01", "1000000"] {
            assert_eq!(plan(std::slice::from_ref(&full), spend), Plan::Pro);
            assert_eq!(plan(std::slice::from_ref(&growth), spend), Plan::Growth);
            assert_eq!(
                plan(&[growth_trial(NOW + DAY_MS)], spend),
                Plan::GrowthTrial
            );
            assert_eq!(plan(&[pro_trial(NOW + DAY_MS)], spend), Plan::ProTrial);
            assert_eq!(plan(std::slice::from_ref(&pre), spend), Plan::ProFreeTrial);
            assert_eq!(plan(std::slice::from_ref(&agency), spend), Plan::Agency);
        }
        // A trial without a recorded kind: the Pro trial, or Growth's for an organisation.
        let legacy = Purchase {
            trial: true,
            off_account_time: Some(NOW + 1),
            ..purchase("pro")
        };
        assert_eq!(plan(std::slice::from_ref(&legacy), "0"), Plan::ProTrial);
        assert_eq!(legacy.trial(), Some(TrialKind::Pro));
    }

    #[test]
    fn a_trial_ends_at_its_end_time_and_falls_back_to_the_free_plans() {
        let end = NOW + 5 * HOUR_MS;
        let p = [pro_trial(end)];
        for (at, want, status) in [
            (
                end - PRO_TRIAL_MS - 1,
                Plan::ProFree,
                FreeTrialStatus::NoTrial,
            ),
            (
                end - PRO_TRIAL_MS,
                Plan::ProTrial,
                FreeTrialStatus::TrialStarted,
            ),
            (end - 1, Plan::ProTrial, FreeTrialStatus::TrialStarted),
            (end, Plan::ProFree, FreeTrialStatus::TrialEnded),
            (
                end + 400 * DAY_MS,
                Plan::ProFree,
                FreeTrialStatus::TrialEnded,
            ),
        ] {
            let s = derive(&p, usd("10"), at);
            assert_eq!((s.plan, s.free_trial), (want, status), "at {at}");
        }
        let after = derive(&p, usd("10000.01"), end);
        assert_eq!(after.plan, Plan::ProLimited);
        assert_eq!(after.previous_status, Some(PreviousStatus::Trial));
        assert_eq!(after.ended.map(|e| e.id), Some("p-pro".into()));
        let during = derive(&p, usd("0"), end - 1);
        assert_eq!((during.previous_status, during.ended), (None, None));
        assert_eq!(
            derive(&[], usd("0"), NOW).free_trial,
            FreeTrialStatus::NoTrial
        );
    }

    #[test]
    fn a_failed_payment_keeps_the_paid_plan_for_168_hours_then_blocks() {
        let end = NOW;
        let failed = Purchase {
            full: true,
            payment_failed: true,
            off_account_time: Some(end),
            ..purchase("pro")
        };
        let s = |at: i64| derive(std::slice::from_ref(&failed), usd("0"), at);
        assert_eq!(s(end - 1).plan, Plan::Pro);
        assert_eq!(s(end).plan, Plan::Pro);
        assert_eq!(s(end + BILLING_GRACE_MS - 1).plan, Plan::Pro);
        assert_eq!(s(end + BILLING_GRACE_MS - 1).previous_status, None);
        let blocked = s(end + BILLING_GRACE_MS);
        assert_eq!(blocked.plan, Plan::ProFree);
        assert_eq!(blocked.previous_status, Some(PreviousStatus::Full));
        assert_eq!(blocked.free_trial, FreeTrialStatus::NoTrial);
        // Without a failed payment the plan ends at its end time.
        let cancelled = Purchase {
            payment_failed: false,
            ..failed.clone()
        };
        assert_eq!(
            derive(std::slice::from_ref(&cancelled), usd("0"), end - 1).plan,
            Plan::Pro
        );
        assert_eq!(
            derive(&[cancelled], usd("20000"), end).plan,
            Plan::ProLimited
        );
    }

    #[test]
    fn the_newest_purchase_in_force_decides() {
        let trial = pro_trial(NOW - DAY_MS);
        let bought = Purchase {
            id: "p-bought".into(),
            full: true,
            started_at: NOW - 2 * HOUR_MS,
            off_account_time: Some(NOW + 30 * DAY_MS),
            ..purchase("pro")
        };
        let upgraded = Purchase {
            id: "p-growth".into(),
            organization: true,
            full: true,
            started_at: NOW - HOUR_MS,
            ..purchase("growth")
        };
        let s = derive(&[trial.clone(), bought.clone()], usd("0"), NOW);
        assert_eq!(
            (s.plan, s.free_trial),
            (Plan::Pro, FreeTrialStatus::TrialEnded)
        );
        assert_eq!(s.previous_status, None);
        assert_eq!(
            plan(&[bought.clone(), upgraded.clone(), trial], "0"),
            Plan::Growth
        );
        // A purchase starting later is not yet in force.
        let future = Purchase {
            started_at: NOW + 1,
            ..upgraded
        };
        assert_eq!(plan(&[bought, future], "0"), Plan::Pro);
        // Growth trial ended: back to free with the trial as previous status.
        let g = derive(&[growth_trial(NOW)], usd("0"), NOW);
        assert_eq!(
            (g.plan, g.previous_status),
            (Plan::ProFree, Some(PreviousStatus::Trial))
        );
        assert_eq!(g.ended.and_then(|e| e.trial()), Some(TrialKind::Growth));
    }

    #[test]
    fn trial_kinds_round_trip_their_stored_names() {
        for k in [TrialKind::Pro, TrialKind::Pre, TrialKind::Growth] {
            assert_eq!(TrialKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(TrialKind::parse("gold"), None);
    }
}
