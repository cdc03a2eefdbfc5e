//! The checks of a rule's actions (the contract's table of levels, the change and its
//! bounds) and of its guardrails (bid and budget limits, the largest change, the entities
//! and data a run needs).

use super::*;

impl Check<'_> {
    fn change(&mut self, at: &str, by: ChangeBy, value: &str) {
        let field = format!("{at}.value");
        let parsed = match by {
            ChangeBy::Percent => self.number(&field, value, Sign::Signed, 2),
            ChangeBy::Amount => self.money(&field, value, Sign::Signed),
        };
        let Some(v) = parsed else { return };
        if v.is_zero() {
            self.err(field, "Enter a change other than 0");
        } else if by == ChangeBy::Percent && (v <= Decimal::from(-100) || v > Decimal::from(1_000))
        {
            self.err(field, "Enter a percentage above -100, at most 1000");
        }
    }

    pub(super) fn action(&mut self, at: &str, a: &Action, rule: &Rule) {
        match a {
            Action::Pause | Action::Enable => {}
            Action::SetBid { amount } | Action::SetBudget { amount } => {
                self.positive_money(&format!("{at}.amount"), amount);
            }
            Action::ChangeBid { by, value } | Action::ChangeBudget { by, value } => {
                self.change(at, *by, value);
            }
            Action::BidToTarget {
                target,
                amount,
                max_step_percent,
            } => {
                let field = format!("{at}.amount");
                match amount {
                    // A ROAS is a fraction of the spend (1.2: 120 %), up to 1000 (100,000 %).
                    Some(amount) if target.is_return() => {
                        let ratio = self.number(&field, amount, Sign::NonNegative, 4);
                        if ratio.is_some_and(|r| r.is_zero() || r > Decimal::from(1_000)) {
                            self.err(field, "Enter a ROAS above 0, at most 1000 (100,000 %)");
                        }
                    }
                    Some(amount) => {
                        self.positive_money(&field, amount);
                    }
                    // Only Apple's costs have a goal to fall back on (the ad group's CPA goal,
                    // the campaign's goal optimisation).
                    None if target.conversion_metric().is_some() => {
                        self.err(field, "Enter the target to aim at");
                    }
                    None => {}
                }
                if let Some(step) = max_step_percent {
                    self.percent(&format!("{at}.maxStepPercent"), step, 1, 100);
                }
            }
            Action::AddKeyword {
                campaign_id,
                ad_group_id,
                match_type,
                bid,
            } => {
                let attached = rule
                    .campaign_ids
                    .as_ref()
                    .is_none_or(|ids| ids.iter().any(|c| c == campaign_id));
                if !digits(campaign_id) || !attached {
                    self.err(
                        format!("{at}.campaignId"),
                        "Choose one of the rule's campaigns",
                    );
                }
                if !digits(ad_group_id) {
                    self.err(format!("{at}.adGroupId"), "Choose an ad group");
                }
                if !MATCH_TYPES.contains(&match_type.as_str()) {
                    self.err(format!("{at}.matchType"), "Must be one of: EXACT, BROAD");
                }
                if let Some(bid) = bid {
                    self.positive_money(&format!("{at}.bid"), bid);
                }
            }
            Action::AddNegative { match_type, .. } => {
                if !MATCH_TYPES.contains(&match_type.as_str()) {
                    self.err(format!("{at}.matchType"), "Must be one of: EXACT, BROAD");
                }
            }
            Action::Alert { channels, emails } => {
                if channels.is_empty() {
                    self.err(format!("{at}.channels"), "Choose email, Slack or both");
                } else if (1..channels.len()).any(|i| channels[..i].contains(&channels[i])) {
                    self.err(format!("{at}.channels"), "Name each channel once");
                }
                if emails.len() > LIST_MAX {
                    self.err(
                        format!("{at}.emails"),
                        format!("At most {LIST_MAX} addresses"),
                    );
                }
                for (i, e) in emails.iter().enumerate() {
                    if !looks_like_email(e) {
                        self.err(format!("{at}.emails.{i}"), "Enter an email address");
                    }
                }
            }
        }
    }

    /// A `min…`/`max…` pair of money guardrails: each at least 0, min ≤ max (else on max).
    fn bounds(
        &mut self,
        min: &Option<String>,
        max: &Option<String>,
        names: (&str, &str),
        what: &str,
    ) {
        let lo = min
            .as_deref()
            .and_then(|t| self.money(&format!("guardrails.{}", names.0), t, Sign::NonNegative));
        let hi = max
            .as_deref()
            .and_then(|t| self.money(&format!("guardrails.{}", names.1), t, Sign::NonNegative));
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo > hi
        {
            self.err(
                format!("guardrails.{}", names.1),
                format!("Must be at least the {what}"),
            );
        }
    }

    pub(super) fn guardrails(&mut self, g: &Guardrails, level: RuleLevel) {
        self.bounds(&g.min_bid, &g.max_bid, ("minBid", "maxBid"), "minimum bid");
        self.bounds(
            &g.min_budget,
            &g.max_budget,
            ("minBudget", "maxBudget"),
            "minimum budget",
        );
        if let Some(p) = &g.max_change_percent {
            self.percent("guardrails.maxChangePercent", p, 1, 1_000);
        }
        if let Some(n) = g.max_entities
            && !(1..=ENTITIES_MAX).contains(&n)
        {
            self.err(
                "guardrails.maxEntities",
                format!("Enter 1 to {ENTITIES_MAX}"),
            );
        }
        if let Some(n) = g.max_change_share
            && !(1..=100).contains(&n)
        {
            self.err("guardrails.maxChangeShare", "Enter 1 to 100");
        }
        if g.min_data.len() > LIST_MAX {
            self.err("guardrails.minData", format!("At most {LIST_MAX} entries"));
        }
        for (i, d) in g.min_data.iter().enumerate() {
            let at = format!("guardrails.minData.{i}");
            match metric_at(&d.metric, level) {
                Some(m) if m.kind() == Kind::Count && m != MetricRef::Popularity => {
                    self.number(&format!("{at}.value"), &d.value, Sign::NonNegative, 0);
                }
                _ => self.err(
                    format!("{at}.metric"),
                    "Choose a counter (impressions, taps, installs…)",
                ),
            }
        }
    }
}
