//! Time in the served numbers: today is served up to the simulated hour (the hours so far,
//! by [`super::dims::hour_weights`]), and installs keep arriving for a few days after the
//! day of the tap or view (within the 30-day tap window), so the last days are restated
//! until they settle. Both are deterministic from the seed and the clock.

use time::Date;

use super::dims::hour_weights;
use super::split::split;
use crate::metrics::{Totals, mix_pub, unit};
use crate::world::zone::LocalNow;
use crate::world::{Id, World};

/// Days after which a day's installs are final.
pub const SETTLE_DAYS: i64 = 5;

/// The hour weights of local `day` as served so far in a zone whose now is `now`: zero for
/// the hours still to come.
pub fn hour_weights_on(now: LocalNow, day: Date) -> [f64; 24] {
    let mut weights = hour_weights();
    weights
        .iter_mut()
        .skip(usize::from(now.hours_served(day)))
        .for_each(|h| *h = 0.0);
    weights
}

/// The served part of one bidder-day of an ad account whose now (in its zone) is `now`:
/// the hours so far of its today (everything of a past day), with the installs reported
/// so far.
pub fn finish(w: &World, now: LocalNow, id: Id, day: Date, t: &Totals) -> Totals {
    let hours = now.hours_served(day);
    let mut t = match hours {
        0 => return Totals::default(),
        24 => *t,
        h => split(t, &hour_weights()).iter().take(usize::from(h)).fold(
            Totals::default(),
            |mut acc, p| {
                acc.add(p);
                acc
            },
        ),
    };
    let age = (now.today - day).whole_days();
    if age < SETTLE_DAYS {
        let h = mix_pub(&[w.seed, id as u64, day.to_julian_day() as u64, 0x1a7e]);
        let first = 0.72 + 0.16 * unit(h);
        let share = 1.0 - (1.0 - first) * 0.4f64.powi(age as i32);
        t = matured(&t, share);
    }
    t
}

/// The installs of `t` reported when `share` of them has arrived; counts floor, so they
/// only grow as the share does.
fn matured(t: &Totals, share: f64) -> Totals {
    let part = |n: u64| ((n as f64) * share).floor() as u64;
    let keep = |all: u64, new: u64, got: u64| {
        if all == 0 {
            0
        } else {
            (((got as f64) * new as f64 / all as f64).round() as u64).min(got)
        }
    };
    let taps = part(t.tap_installs());
    let views = part(t.view_installs());
    let tap_new = keep(t.tap_installs(), t.tap_new_downloads, taps);
    let view_new = keep(t.view_installs(), t.view_new_downloads, views);
    Totals {
        tap_new_downloads: tap_new,
        tap_redownloads: taps - tap_new,
        view_new_downloads: view_new,
        view_redownloads: views - view_new,
        ..*t
    }
}
