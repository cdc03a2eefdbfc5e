//! Where a bidder-day's traffic goes in a row: its totals, and for the rows of the page
//! its time buckets (hourly, daily, weekly or monthly), on the ad account's days or, for
//! `timeZone: UTC`, hour by hour on the UTC days of the range.

use time::{Date, Duration};

use super::{Buckets, bucket};
use crate::api::report_request::{Checked, Granularity};
use crate::metrics::Totals;
use crate::sim::split::split;
use crate::world::{Id, World};

/// Where a bidder-day's traffic goes in the rows: whole into the local day's bucket (the
/// ad account's days, `ORTZ`), or, for `timeZone: UTC`, hour by hour into the UTC days of
/// the range (a local day overlaps two UTC days).
pub(super) struct Sink<'a> {
    c: &'a Checked,
    granular: bool,
    /// The ad account's time zone, for UTC reports.
    utc_of: Option<&'static str>,
}

impl<'a> Sink<'a> {
    pub(super) fn new(w: &World, c: &'a Checked, campaign: Id, granular: bool) -> Self {
        let utc_of = c.utc.then(|| {
            w.campaigns
                .get(&campaign)
                .and_then(|k| w.accounts.get(&k.ad_account_id))
                .map_or("UTC", |a| a.timezone)
        });
        Sink {
            c,
            granular,
            utc_of,
        }
    }

    /// The local days to go through: those of the range, and for UTC the day on each side
    /// (clipped to the hours inside the range); never past `today`.
    pub(super) fn days(&self, today: Date) -> (Date, Date) {
        let (c, one) = (self.c, Duration::days(1));
        match self.utc_of {
            None => (c.start, c.end.min(today)),
            Some(_) => (c.start - one, (c.end + one).min(today)),
        }
    }

    pub(super) fn add(
        &self,
        entry: &mut (Totals, Buckets),
        day: Date,
        t: &Totals,
        hours: &[f64; 24],
    ) {
        let Some(tz) = self.utc_of else {
            entry.0.add(t);
            if self.granular {
                add_buckets(&mut entry.1, day, t, self.c, hours);
            }
            return;
        };
        let (from, to) = (
            i64::from(self.c.start.to_julian_day()),
            i64::from(self.c.end.to_julian_day()),
        );
        for (h, part) in split(t, hours).iter().enumerate() {
            let at = crate::world::zone::utc_hour(tz, day, h as i64);
            let utc_day = at.div_euclid(24);
            if part.is_zero() || utc_day < from || to < utc_day {
                continue;
            }
            entry.0.add(part);
            if let Some(g) = self.c.granularity.filter(|_| self.granular) {
                let bucket_at = match g {
                    Granularity::Hourly => at,
                    _ => bucket(Date::from_julian_day(utc_day as i32).expect("in range"), g),
                };
                match entry.1.iter_mut().rev().find(|b| b.0 == bucket_at) {
                    Some(b) => b.1.add(part),
                    None => entry.1.push((bucket_at, *part)),
                }
            }
        }
    }
}

fn add_buckets(buckets: &mut Buckets, day: Date, t: &Totals, c: &Checked, hours: &[f64; 24]) {
    let Some(g) = c.granularity else { return };
    let mut add = |at: i64, t: &Totals| match buckets.iter_mut().rev().find(|b| b.0 == at) {
        Some(b) => b.1.add(t),
        None => buckets.push((at, *t)),
    };
    if g == Granularity::Hourly {
        let start = bucket(day, g);
        for (h, p) in split(t, hours).iter().enumerate() {
            if !p.is_zero() {
                add(start + h as i64, p);
            }
        }
    } else {
        add(bucket(day, g), t);
    }
}
