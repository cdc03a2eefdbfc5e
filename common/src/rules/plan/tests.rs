//! What an action does to one entity, case by case: relative changes made absolute, money
//! floored and kept above Apple's minimum, the guardrails' clamps, bid-to-target steps,
//! budgets, statuses and additions, and the largest spenders kept.

use super::*;
use crate::rules::evaluate::Targets;
use crate::store::report_facts::Counters;

fn row(bid: i64, taps: i64, installs: i64, spend: i64) -> EntityRow {
    let mut c = [0i64; 11];
    c[1] = taps;
    c[2] = installs;
    c[10] = spend;
    EntityRow {
        id: 7,
        campaign_id: 10,
        ad_group_id: 100,
        name: "Photo Editor".into(),
        status: Some("ACTIVE".into()),
        match_type: Some("EXACT".into()),
        tags: vec![],
        bid_micros: Some(bid),
        default_bid_micros: Some(500_000),
        cpa_goal_micros: Some(2_000_000),
        daily_budget_micros: Some(50_000_000),
        popularity: None,
        counters: Counters(c),
        conversions: None,
    }
}

fn limits(g: Guardrails, currency: &str) -> Limits {
    Limits::of(&g, currency)
}

fn run(action: Action, r: &EntityRow, l: &Limits, level: RuleLevel) -> Planned {
    let keywords = HashSet::from([(100, "photo editor".to_string(), "EXACT".to_string())]);
    let negatives = HashSet::from([(10, None, "free".to_string(), "EXACT".to_string())]);
    plan(
        &action,
        r,
        &PlanScope {
            level,
            limits: l,
            targets: Targets::default(),
            keywords: &keywords,
            negatives: &negatives,
        },
    )
    .unwrap()
}

fn new_of(action: Action, r: &EntityRow, l: &Limits) -> Option<String> {
    let p = run(action, r, l, RuleLevel::Keywords);
    p.skipped.map_or(p.new, |why| Some(format!("skip: {why}")))
}

fn change_bid(by: ChangeBy, v: &str) -> Action {
    Action::ChangeBid {
        by,
        value: v.into(),
    }
}

#[test]
fn relative_changes_become_absolute_values() {
    let l = limits(Guardrails::default(), "USD");
    let r = row(1_000_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "10"), &r, &l).as_deref(),
        Some("1.1")
    );
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "-15"), &r, &l).as_deref(),
        Some("0.85")
    );
    assert_eq!(
        new_of(change_bid(ChangeBy::Amount, "-0.10"), &r, &l).as_deref(),
        Some("0.9")
    );
    assert_eq!(
        new_of(
            Action::SetBid {
                amount: "2.5".into()
            },
            &r,
            &l
        )
        .as_deref(),
        Some("2.5")
    );
    assert_eq!(
        new_of(
            Action::SetBid {
                amount: "1.00".into()
            },
            &r,
            &l
        )
        .as_deref(),
        Some("skip: Already at the target")
    );
    let p = run(
        change_bid(ChangeBy::Percent, "10"),
        &r,
        &l,
        RuleLevel::Keywords,
    );
    assert_eq!((p.field, p.old.as_deref()), ("cptBid", Some("1")));
    // An ad group's default bid.
    let p = run(
        change_bid(ChangeBy::Percent, "10"),
        &r,
        &l,
        RuleLevel::Adgroups,
    );
    assert_eq!(
        (p.field, p.old.as_deref(), p.new.as_deref()),
        ("defaultBidAmount", Some("0.5"), Some("0.55"))
    );
}

#[test]
fn money_is_floored_to_the_currency_and_kept_above_apples_minimum() {
    let l = limits(Guardrails::default(), "USD");
    // 1.23 × 1.07 = 1.3161 → 1.31.
    let r = row(1_230_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "7"), &r, &l).as_deref(),
        Some("1.31")
    );
    // Apple's minimum bid in USD is 0.10.
    let low = row(150_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "-90"), &low, &l).as_deref(),
        Some("0.1")
    );
    // JPY has no decimals; its minimum bid is larger.
    let jpy = limits(Guardrails::default(), "JPY");
    let r = row(100_000_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "3.3"), &r, &jpy).as_deref(),
        Some("103")
    );
    assert!(jpy.apple_bid > Decimal::ONE);
}

#[test]
fn guardrails_clamp_without_pushing_further_out() {
    let g = Guardrails {
        min_bid: Some("0.50".into()),
        max_bid: Some("2.00".into()),
        max_change_percent: Some("50".into()),
        ..Default::default()
    };
    let l = limits(g, "USD");
    let r = row(1_000_000, 0, 0, 0);
    // +200 % moves at most 50 %.
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "200"), &r, &l).as_deref(),
        Some("1.5")
    );
    // Setting 10.00 from 1.80: at most +50 % (2.70), then the maximum 2.00.
    let r18 = row(1_800_000, 0, 0, 0);
    assert_eq!(
        new_of(
            Action::SetBid {
                amount: "10".into()
            },
            &r18,
            &l
        )
        .as_deref(),
        Some("2")
    );
    // Lowering 0.60 by 40 % stops at the minimum 0.50.
    let r06 = row(600_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "-40"), &r06, &l).as_deref(),
        Some("0.5")
    );
    // Already above the maximum: a raise leaves it where it is, a cut moves it down.
    let high = row(3_000_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "10"), &high, &l).as_deref(),
        Some("skip: Already at the target")
    );
    assert_eq!(
        new_of(change_bid(ChangeBy::Percent, "-10"), &high, &l).as_deref(),
        Some("2.7")
    );
    // Below the minimum: a cut does not push it lower.
    let under = row(300_000, 0, 0, 0);
    assert_eq!(
        new_of(change_bid(ChangeBy::Amount, "-0.1"), &under, &l).as_deref(),
        Some("skip: Already at the target")
    );
}

#[test]
fn bid_to_target_moves_by_the_ratio_within_its_step() {
    let l = limits(Guardrails::default(), "USD");
    let to_cpa = |amount: Option<&str>, step: Option<&str>| Action::BidToTarget {
        target: Target::Cpa,
        amount: amount.map(str::to_string),
        max_step_percent: step.map(str::to_string),
    };
    // CPA 4.00 (20.00 / 5), goal 2.00 (the ad group's): bid × 0.5, at most −20 %.
    let r = row(1_000_000, 50, 5, 20_000_000);
    assert_eq!(new_of(to_cpa(None, None), &r, &l).as_deref(), Some("0.8"));
    assert_eq!(
        new_of(to_cpa(None, Some("100")), &r, &l).as_deref(),
        Some("0.5")
    );
    // A target of 4.40 with CPA 4.00: × 1.1.
    assert_eq!(
        new_of(to_cpa(Some("4.40"), None), &r, &l).as_deref(),
        Some("1.1")
    );
    // No installs: no change.
    let none = row(1_000_000, 50, 0, 20_000_000);
    assert_eq!(
        new_of(to_cpa(None, None), &none, &l).as_deref(),
        Some("skip: No installs in the window")
    );
    // CPT: 20.00 / 50 taps = 0.40, target 0.50 → × 1.25, capped at +20 %.
    let cpt = Action::BidToTarget {
        target: Target::Cpt,
        amount: Some("0.50".into()),
        max_step_percent: None,
    };
    assert_eq!(new_of(cpt, &r, &l).as_deref(), Some("1.2"));
    // No CPT target at all.
    let no_target = Action::BidToTarget {
        target: Target::Cpt,
        amount: None,
        max_step_percent: None,
    };
    assert_eq!(
        new_of(no_target, &r, &l).as_deref(),
        Some("skip: No target to aim at")
    );
}

#[test]
fn bid_to_a_conversion_target_reads_the_attributed_conversions() {
    use crate::attribution::conversions::Conversions;
    use crate::report::RuleConversions;
    let l = limits(Guardrails::default(), "USD");
    let to = |target: Target, amount: &str| Action::BidToTarget {
        target,
        amount: Some(amount.into()),
        max_step_percent: None,
    };
    // 20.00 spent, 4 trials, 1 purchase; installs of the days old enough for D7 cost 10.00
    // and earned 15.00 in their first 7 days.
    let with = |trials: i64, revenue_d7: i64, spend_d7: i64| {
        let mut r = row(1_000_000, 50, 5, 20_000_000);
        r.conversions = Some(RuleConversions {
            events: Conversions {
                tracked_installs: 5,
                trials,
                purchases: 1,
                cohort_revenue_micros: vec![0, 0, 0, revenue_d7, 0, 0],
                ..Default::default()
            },
            cohort_spend_micros: vec![0, 0, 0, spend_d7, 0, 0],
        });
        r
    };
    let r = with(4, 15_000_000, 10_000_000);
    // Cost per trial 5.00, target 4.00: × 0.8.
    assert_eq!(
        new_of(to(Target::CostPerTrial, "4.00"), &r, &l).as_deref(),
        Some("0.8")
    );
    // Cost per purchase 20.00, target 22.00: × 1.1.
    assert_eq!(
        new_of(to(Target::CostPerPurchase, "22"), &r, &l).as_deref(),
        Some("1.1")
    );
    // ROAS D7 1.5 against 1.4: × 1.0714…, floored to the cent; against 1.2: +25 %, capped
    // at +20 %; against 2.0: −25 %, capped at −20 %.
    assert_eq!(
        new_of(to(Target::RoasD7, "1.4"), &r, &l).as_deref(),
        Some("1.07")
    );
    assert_eq!(
        new_of(to(Target::RoasD7, "1.2"), &r, &l).as_deref(),
        Some("1.2")
    );
    assert_eq!(
        new_of(to(Target::RoasD7, "2"), &r, &l).as_deref(),
        Some("0.8")
    );
    // Spend on mature installs that earned nothing: down by the whole step.
    assert_eq!(
        new_of(to(Target::RoasD7, "1"), &with(4, 0, 10_000_000), &l).as_deref(),
        Some("0.8")
    );
    // No mature installs, no trials, no data: no change, and the reason.
    assert_eq!(
        new_of(to(Target::RoasD7, "1"), &with(4, 0, 0), &l).as_deref(),
        Some("skip: No spend on installs old enough for the cohort")
    );
    assert_eq!(
        new_of(to(Target::CostPerTrial, "4"), &with(0, 0, 0), &l).as_deref(),
        Some("skip: No trials in the window")
    );
    assert_eq!(
        new_of(
            to(Target::CostPerTrial, "4"),
            &row(1_000_000, 50, 5, 20_000_000),
            &l
        )
        .as_deref(),
        Some("skip: No attributed conversions for this campaign in the window"),
        "unknown is not zero"
    );
}

#[test]
fn budgets_statuses_and_additions() {
    let g = Guardrails {
        max_budget: Some("60".into()),
        ..Default::default()
    };
    let l = limits(g, "USD");
    let r = row(1_000_000, 0, 0, 0);
    let p = run(
        Action::ChangeBudget {
            by: ChangeBy::Percent,
            value: "50".into(),
        },
        &r,
        &l,
        RuleLevel::Campaigns,
    );
    assert_eq!(
        (p.field, p.old.as_deref(), p.new.as_deref()),
        ("dailyBudget", Some("50"), Some("60"))
    );
    let p = run(
        Action::SetBudget {
            amount: "0.5".into(),
        },
        &r,
        &l,
        RuleLevel::Campaigns,
    );
    assert_eq!(
        p.new.as_deref(),
        Some("1"),
        "Apple's minimum daily budget in USD"
    );
    let p = run(Action::Pause, &r, &l, RuleLevel::Keywords);
    assert_eq!(
        (p.old.as_deref(), p.new.as_deref(), p.skipped),
        (Some("ACTIVE"), Some("PAUSED"), None)
    );
    let p = run(Action::Enable, &r, &l, RuleLevel::Keywords);
    assert_eq!(p.skipped, Some("Already at the target"));
    let mut paused_group = r.clone();
    paused_group.status = Some("PAUSED".into());
    let p = run(Action::Enable, &paused_group, &l, RuleLevel::Adgroups);
    assert_eq!(p.new.as_deref(), Some("ENABLED"));
    let add = |group: &str| Action::AddKeyword {
        campaign_id: "10".into(),
        ad_group_id: group.into(),
        match_type: "EXACT".into(),
        bid: None,
    };
    assert_eq!(
        run(add("100"), &r, &l, RuleLevel::Searchterms).skipped,
        Some("Already a keyword there")
    );
    assert_eq!(
        run(add("101"), &r, &l, RuleLevel::Searchterms).skipped,
        None
    );
    let neg = Action::AddNegative {
        r#where: crate::rules::NegativePlace::Campaign,
        match_type: "EXACT".into(),
    };
    assert_eq!(
        run(neg.clone(), &r, &l, RuleLevel::Searchterms).skipped,
        None
    );
    let mut free = r.clone();
    free.name = "FREE".into();
    assert_eq!(
        run(neg, &free, &l, RuleLevel::Searchterms).skipped,
        Some("Already a negative keyword there")
    );
    assert!(
        plan(
            &Action::Alert {
                channels: vec![],
                emails: vec![]
            },
            &r,
            &PlanScope {
                level: RuleLevel::Keywords,
                limits: &l,
                targets: Targets::default(),
                keywords: &HashSet::new(),
                negatives: &HashSet::new(),
            }
        )
        .is_none()
    );
}

#[test]
fn max_entities_keeps_the_largest_spenders() {
    let rows: Vec<EntityRow> = [(1, 5), (2, 50), (3, 20), (4, 50)]
        .into_iter()
        .map(|(id, spend)| {
            let mut r = row(1_000_000, 0, 0, spend);
            r.id = id;
            r
        })
        .collect();
    let refs: Vec<&EntityRow> = rows.iter().collect();
    assert_eq!(limit(&refs, Some(2)), HashSet::from([1, 3]));
    assert_eq!(limit(&refs, Some(3)), HashSet::from([1, 2, 3]));
    assert_eq!(limit(&refs, None).len(), 4);
}
