//! How a keyword's served traffic divides among the search terms it matched: its terms'
//! weights and the negative keywords of its campaign and ad group that may block each
//! ([`TermPlan`], memoised per keyword), the terms open on a day, and the split itself.

use time::Date;

use super::{Simulation, split, terms};
use crate::metrics::Totals;
use crate::world::{Id, Keyword, NegativeKeyword, World};

/// A keyword's search terms: their weights (also as [`split::int_weights`]) and the
/// negative keywords that may block each.
pub struct TermPlan {
    weights: Vec<f64>,
    ints: Vec<u64>,
    blocked_by: Vec<Vec<Id>>,
    any_blocker: bool,
}

impl TermPlan {
    /// Whether term `i` is blocked on `day` by a negative keyword in effect.
    fn blocked(&self, w: &World, i: usize, day: Date) -> bool {
        self.blocked_by[i]
            .iter()
            .any(|n| w.negative_keywords[n].life.active_on(day))
    }
}

/// The search terms of `k` with the negatives of its campaign and ad group that match them
/// (never its own text).
pub fn term_plan(w: &World, k: &Keyword) -> TermPlan {
    let negatives: Vec<&NegativeKeyword> = w
        .index
        .children("NegativeKeyword", k.campaign_id)
        .iter()
        .map(|id| &w.negative_keywords[id])
        .filter(|n| n.ad_group_id.is_none_or(|g| g == k.ad_group_id))
        .collect();
    let (mut weights, mut blocked_by) = (Vec::new(), Vec::new());
    for (i, (t, weight)) in terms::terms(w.seed, k).into_iter().enumerate() {
        weights.push(weight);
        blocked_by.push(if i == 0 {
            vec![]
        } else {
            negatives
                .iter()
                .filter(|n| terms::blocks(n, &t))
                .map(|n| n.id)
                .collect()
        });
    }
    TermPlan {
        ints: split::int_weights(&weights),
        any_blocker: blocked_by.iter().any(|b: &Vec<Id>| !b.is_empty()),
        weights,
        blocked_by,
    }
}

impl<'w> Simulation<'w> {
    /// The search terms `k` matched on `day` with their weights, after negatives, each
    /// with its position in [`terms::terms`].
    pub fn terms_on(&self, k: &Keyword, day: Date) -> Vec<(usize, String, f64)> {
        let all = terms::terms(self.world.seed, k);
        self.term_weights_on(k, day)
            .into_iter()
            .map(|(i, w)| (i, all[i].0.clone(), w))
            .collect()
    }

    /// [`Self::terms_on`] without the texts (memoised per keyword).
    pub fn term_weights_on(&self, k: &Keyword, day: Date) -> Vec<(usize, f64)> {
        let w = self.world;
        let mut cache = self.terms.borrow_mut();
        let plan = cache.entry(k.id).or_insert_with(|| term_plan(w, k));
        plan.weights
            .iter()
            .enumerate()
            .filter(|(i, _)| !plan.blocked(w, *i, day))
            .map(|(i, weight)| (i, *weight))
            .collect()
    }

    /// Splits keyword `k`'s served `t` on `day` among the search terms it matched that day
    /// (as [`Self::term_weights_on`] weighs them) into `out`: `(term position, part)`.
    pub fn split_terms(
        &self,
        k: &Keyword,
        day: Date,
        t: &Totals,
        out: &mut Vec<(u16, Totals)>,
        parts: &mut Vec<Totals>,
    ) {
        let w = self.world;
        let mut cache = self.terms.borrow_mut();
        let plan = cache.entry(k.id).or_insert_with(|| term_plan(w, k));
        Self::split_by_plan(w, plan, day, t, out, parts);
    }

    /// [`Self::split_terms`] with the keyword's [`term_plan`] at hand (callers going through
    /// many days of the same bidders keep the plans by position).
    pub fn split_by_plan(
        w: &World,
        plan: &TermPlan,
        day: Date,
        t: &Totals,
        out: &mut Vec<(u16, Totals)>,
        parts: &mut Vec<Totals>,
    ) {
        out.clear();
        if !plan.any_blocker {
            split::split_ints_into(t, &plan.ints, parts);
            out.extend(parts.iter().enumerate().map(|(i, p)| (i as u16, *p)));
            return;
        }
        let open: Vec<usize> = (0..plan.weights.len())
            .filter(|i| !plan.blocked(w, *i, day))
            .collect();
        let ints: Vec<u64> = open.iter().map(|i| plan.ints[*i]).collect();
        split::split_ints_into(t, &ints, parts);
        out.extend(open.iter().zip(parts.iter()).map(|(i, p)| (*i as u16, *p)));
    }
}
