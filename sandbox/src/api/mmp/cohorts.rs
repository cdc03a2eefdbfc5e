//! What an attribution provider measured of the world's Apple Ads installs, for the
//! reporting-API stand-ins: per install day, campaign, ad group, keyword (none for Search
//! Match's terms) and claim type, the installs the provider attributed — most of Apple's,
//! a share per bidder-day lost as an SDK loses some — and what each of those users did:
//! a trial, a subscription when the trial ends, a renewal a month later, or a purchase, at
//! their days after install, priced in the app's currency (its ad account's). An event is
//! served once its day has come in the campaign's zone, so cohorts mature as the clock
//! moves. Deterministic from the world's seed and the sandbox's simulation: the same
//! install of the same bidder-day always does the same things.

use time::Date;

use crate::metrics::{mix_pub, unit};
use crate::sim::{Simulation, Unit};
use crate::world::{Id, World};

/// The trial event's name (AppsFlyer's recommended `af_start_trial`).
pub const TRIAL: &str = "af_start_trial";
/// The subscription event (a trial converted, or a renewal): `af_subscribe`.
pub const SUBSCRIBE: &str = "af_subscribe";
/// A one-off purchase: `af_purchase`.
pub const PURCHASE: &str = "af_purchase";

/// One attributed user's event: its name, its days after install and its revenue (micros
/// of the app's currency; 0 for a trial).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub name: &'static str,
    pub age: i64,
    pub micros: i64,
}

/// The installs one provider attributed to one bidder of one day and claim type, with
/// their users' events served so far.
#[derive(Debug, Clone)]
pub struct Cohort {
    pub day: Date,
    pub campaign_id: Id,
    pub ad_group_id: Id,
    /// The keyword, None for a Search Match term.
    pub keyword_id: Option<Id>,
    /// `true`: tap-through (Click); `false`: view-through (Impression).
    pub click: bool,
    pub installs: u64,
    pub events: Vec<Event>,
}

/// A subscription's price in `currency` (micros): 9.99 in dollars, euros and the like, in
/// whole units where the currency has no cents.
pub fn price(currency: &str) -> i64 {
    match currency {
        "JPY" => 1_500_000_000,
        "KRW" => 14_000_000_000,
        "INR" => 799_000_000,
        "GBP" => 8_990_000,
        _ => 9_990_000,
    }
}

/// The currency an app's revenue is in: its ad account's.
pub fn currency_of(w: &World, adam_id: i64) -> Option<&'static str> {
    let owner = w.apps.get(&adam_id)?.owner?;
    Some(w.accounts.get(&owner)?.currency)
}

/// The cohorts of `adam_id` installed on `day` (the campaigns' own days), with `share` of
/// each bidder-day's attributed installs (1.0; 0.5 for an in-progress day).
pub fn cohorts(
    w: &World,
    sim: &mut Simulation<'_>,
    adam_id: i64,
    day: Date,
    share: f64,
) -> Vec<Cohort> {
    let Some(currency) = currency_of(w, adam_id) else {
        return Vec::new();
    };
    let price = price(currency);
    let mut out = Vec::new();
    let campaigns: Vec<Id> = w
        .campaigns
        .values()
        .filter(|c| c.adam_id == adam_id)
        .map(|c| c.id)
        .collect();
    for campaign in campaigns {
        let today = w.campaign_now(campaign).today;
        if day >= today {
            continue;
        }
        let served_until = (today - day).whole_days() - 1;
        for (bidder, totals) in sim.campaign_units(campaign, day) {
            for (click, apple) in [
                (true, totals.tap_installs()),
                (false, totals.view_installs()),
            ] {
                if apple == 0 {
                    continue;
                }
                let h = mix_pub(&[
                    w.seed,
                    bidder.id() as u64,
                    day.to_julian_day() as u64,
                    u64::from(click),
                    0x4d4d,
                ]);
                // The provider sees 85–95 % of Apple's installs of a bidder-day.
                let tracked = (apple as f64 * (0.85 + 0.10 * unit(h))).floor();
                let installs = (tracked * share).floor() as u64;
                if installs == 0 {
                    continue;
                }
                let mut events = Vec::new();
                for i in 0..installs {
                    user_events(mix_pub(&[h, i, 0x55]), price, served_until, &mut events);
                }
                out.push(Cohort {
                    day,
                    campaign_id: campaign,
                    ad_group_id: bidder.ad_group_id(),
                    keyword_id: match bidder {
                        Unit::Keyword(k) => Some(k.id),
                        Unit::Auto(..) => None,
                    },
                    click,
                    installs,
                    events,
                });
            }
        }
    }
    out
}

/// One user's events served by `served_until` days after the install: a trial for 30 %
/// (on the install day mostly), converted to a subscription seven days later by 40 % of
/// them, renewed 30 days after that by 60 % of those; a one-off purchase for 3 %.
fn user_events(h: u64, price: i64, served_until: i64, out: &mut Vec<Event>) {
    let mut push = |name, age, micros| {
        if age <= served_until {
            out.push(Event { name, age, micros });
        }
    };
    let draw = |salt: u64| unit(mix_pub(&[h, salt]));
    if draw(1) < 0.30 {
        let trial = if draw(2) < 0.7 {
            0
        } else {
            1 + (mix_pub(&[h, 3]) % 3) as i64
        };
        push(TRIAL, trial, 0);
        if draw(4) < 0.40 {
            push(SUBSCRIBE, trial + 7, price);
            if draw(5) < 0.60 {
                push(SUBSCRIBE, trial + 37, price);
            }
        }
    } else if draw(6) < 0.03 {
        push(PURCHASE, (mix_pub(&[h, 7]) % 3) as i64, price / 2);
    }
}
