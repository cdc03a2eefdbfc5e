//! An event's revenue over the days after install: a reporting API gives an event's
//! revenue in all (AppsFlyer's `sales_in_usd_<event>`, Adjust's `<event>_revenue`) and,
//! apart, how all of a cohort's revenue grew by day (AppsFlyer's `cohort_day_N_total_revenue
//! _per_user`); the event's revenue is split as the cohort's is, so the report's D-N columns
//! add up to what the curve says and the event's total is kept exactly.

use crate::store::attribution::facts::LATER;

/// `amount` (micros) split over the ages of `curve` (`(days after install, cumulative
/// revenue)`, ascending) in the proportion of `total`'s growth: `(age, micros)` per point
/// (the growth up to it), then [`LATER`] for what the curve has not reached. Without a
/// curve or a total, all of `amount` is later than day 30 (its day unknown); the parts add
/// up to `amount`.
pub fn split_by_curve(amount: i64, total: i64, curve: &[(i64, i64)]) -> Vec<(i64, i64)> {
    if amount == 0 {
        return Vec::new();
    }
    if total <= 0 || curve.is_empty() {
        return vec![(LATER, amount)];
    }
    let mut out = Vec::new();
    let mut given = 0i64;
    let mut reached = 0i64;
    for &(age, cumulative) in curve {
        let cumulative = cumulative.clamp(reached, total);
        reached = cumulative;
        let through =
            i64::try_from(i128::from(amount) * i128::from(cumulative) / i128::from(total))
                .unwrap_or(amount);
        if through != given {
            out.push((age.min(LATER), through - given));
            given = through;
        }
    }
    if given != amount {
        out.push((LATER, amount - given));
    }
    out
}
