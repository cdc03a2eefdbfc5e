//! Daily metrics, derived on demand from a deterministic function of the seed, the
//! keyword, the day and the settings in effect that day (bid, statuses). Nothing is
//! stored, so a world of any size costs nothing until a report asks for it.
//!
//! Per keyword and day: searches follow the keyword's popularity, the campaign's
//! storefronts, the weekday and noise; the bid wins a share of the keyword's auctions
//! against competitors' bids around its market price (diminishing returns: doubling a bid
//! never doubles impressions); taps follow relevance; every tap costs the day's average
//! second price, below the bid; installs split into new downloads and redownloads, and a
//! small share of viewers installs without tapping. Ad groups and campaigns are sums of
//! their keywords, so every level adds up.

use sha2::{Digest, Sha256};
use time::{Date, Weekday};

use crate::world::money::{minor_unit, usd_rate};
use crate::world::timeline::Timeline;
use crate::world::words::country_weight;
use crate::world::{Keyword, MatchType, World};

pub use crate::totals::Totals;

/// A stable 64-bit hash of a string (keyword texts keep their market across worlds).
fn text_hash(seed: u64, text: &str) -> u64 {
    let digest = Sha256::new()
        .chain_update(seed.to_le_bytes())
        .chain_update(text.as_bytes())
        .finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// SplitMix64 of a few inputs: the noise source.
fn mix(parts: &[u64]) -> u64 {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for p in parts {
        x ^= p
            .wrapping_add(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(x << 6)
            .wrapping_add(x >> 2);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
    }
    x
}

/// [`mix`] for other modules: a stable 64-bit hash of a few numbers.
pub fn mix_pub(parts: &[u64]) -> u64 {
    mix(parts)
}

/// A uniform number in [0, 1) from a hash.
pub fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Search popularity of a text, 1–100: short, head terms are searched more.
pub fn popularity(seed: u64, text: &str) -> u8 {
    let words = text.split_whitespace().count().max(1) as f64;
    let base = 25.0 + 75.0 * unit(text_hash(seed, text)).powf(1.5);
    (base / words.powf(0.9)).clamp(1.0, 100.0).round() as u8
}

/// The typical CPT advertisers pay for a text, in micros of `currency`.
pub fn market_cpt(seed: u64, text: &str, currency: &str) -> i64 {
    let u = unit(mix(&[text_hash(seed, text), 7]));
    let usd = 0.3 + 2.7 * u * u + f64::from(popularity(seed, text)) / 100.0;
    let minor = minor_unit(currency);
    ((usd * usd_rate(currency) * 1e6 / minor as f64).round() as i64).max(1) * minor
}

/// One keyword's metrics on one day, zero when it or a parent does not serve that day.
pub fn keyword_day(world: &World, keyword: &Keyword, day: Date) -> Totals {
    KeywordModel::new(world, keyword).day(world, keyword, day)
}

/// Share of auctions a bid wins against competitors whose best bid is log-logistic around
/// `market` with shape `k` (steeper: denser competition): rises with the bid, with
/// diminishing returns.
pub fn win_share(bid: f64, market: f64, k: f64) -> f64 {
    1.0 / (1.0 + (market / bid.max(1.0)).powf(k))
}

/// The average second price paid with `bid`: the competitors' best bid, given that it was
/// below `bid` (so always under the bid, and closer to it the denser the competition).
pub fn second_price(bid: f64, market: f64, k: f64) -> f64 {
    let p = win_share(bid, market, k);
    // E[X; X < bid] = ∫₀ᵖ F⁻¹(u) du with F⁻¹(u) = market·(u/(1-u))^(1/k), by the midpoint rule.
    const N: usize = 32;
    let step = p / N as f64;
    let integral: f64 = (0..N)
        .map(|i| {
            let u = (i as f64 + 0.5) * step;
            market * (u / (1.0 - u)).powf(1.0 / k)
        })
        .sum::<f64>()
        * step;
    (integral / p).min(bid)
}

/// The bid at which a keyword would win about 70 % of its auctions.
pub fn suggested_bid(market: f64, k: f64) -> f64 {
    market * (0.7f64 / 0.3).powf(1.0 / k)
}

/// The per-keyword constants of the model, computed once per report.
#[derive(Debug)]
pub struct KeywordModel {
    id: i64,
    bid: Timeline<i64>,
    seed: u64,
    minor: i64,
    market: i64,
    /// Shape of the competitors' bids: higher is denser competition.
    competition: f64,
    /// Searches per day before noise: popularity, storefronts and match type.
    base_searches: f64,
    /// The searches of a single-storefront reach, and the match type's factor: the days
    /// before a change of the campaign's countries use the reach they had.
    head: f64,
    broad: f64,
    /// `(first day of the next countries, reach)` before each change, oldest first.
    reach_before: Vec<(Date, f64)>,
    relevance: f64,
    conversion: f64,
    /// `(bid, win share, second price)` of the last bid seen.
    auction: std::cell::Cell<(i64, f64, f64)>,
    /// Days whose metrics a test set ([`World::set_days`]), served as they are.
    set_days: std::collections::BTreeMap<Date, Totals>,
}

impl KeywordModel {
    pub fn new(world: &World, keyword: &Keyword) -> Self {
        Self::bidder(
            world,
            (keyword.id, keyword.campaign_id),
            &keyword.text,
            keyword.match_type,
            keyword.bid.clone(),
        )
    }

    /// The model of anything bidding on `text` in campaign `campaign` with `bid`: a keyword,
    /// or a search-match term of an ad group (`id` is then the term's own).
    pub fn bidder(
        world: &World,
        (id, campaign): (i64, i64),
        text: &str,
        match_type: MatchType,
        bid: Timeline<i64>,
    ) -> Self {
        let seed = world.seed;
        let campaign = world.campaigns.get(&campaign);
        let currency = campaign.map_or("USD", |c| world.accounts[&c.ad_account_id].currency);
        let reach_of =
            |countries: &[String]| -> f64 { countries.iter().map(|c| country_weight(c)).sum() };
        let reach: f64 = campaign.map_or(0.0, |c| reach_of(&c.countries));
        let reach_before = campaign.map_or(Vec::new(), |c| {
            c.countries_before
                .iter()
                .map(|(until, countries)| (*until, reach_of(countries)))
                .collect()
        });
        let pop = f64::from(popularity(seed, text));
        let broad = if match_type == MatchType::Broad {
            1.5
        } else {
            1.0
        };
        let h = text_hash(seed, text);
        KeywordModel {
            id,
            bid,
            seed,
            minor: minor_unit(currency),
            market: market_cpt(seed, text, currency),
            competition: 1.6 + 1.8 * unit(mix(&[h, 11])),
            base_searches: 6.0 * pop.powf(1.6) * reach * broad,
            head: 6.0 * pop.powf(1.6),
            broad,
            reach_before,
            relevance: 0.03 + 0.09 * unit(mix(&[seed, id as u64, 3])),
            conversion: 0.35 + 0.35 * unit(mix(&[seed, id as u64, 8])),
            auction: std::cell::Cell::new((0, 0.0, 0.0)),
            set_days: world.set_days.get(&id).cloned().unwrap_or_default(),
        }
    }

    /// `(win share, second price)` of `bid`.
    fn auction(&self, bid: i64) -> (f64, f64) {
        let (b, share, price) = self.auction.get();
        if b == bid {
            return (share, price);
        }
        let (m, k) = (self.market as f64, self.competition);
        let out = (win_share(bid as f64, m, k), second_price(bid as f64, m, k));
        self.auction.set((bid, out.0, out.1));
        out
    }

    /// The bid suggested for this keyword, in micros.
    pub fn suggested_bid(&self) -> i64 {
        let b = suggested_bid(self.market as f64, self.competition);
        ((b / self.minor as f64).round() as i64).max(1) * self.minor
    }

    /// The spend of an average day at `bid`, before noise, in micros.
    pub fn expected_spend(&self, bid: i64) -> f64 {
        let (share, price) = self.auction(bid);
        self.base_searches * share * 0.9 * self.relevance * price
    }

    /// Metrics of `keyword` (the one this model is of) on a whole `day`, zero when it or a
    /// parent does not serve that day.
    pub fn day(&self, world: &World, keyword: &Keyword, day: Date) -> Totals {
        if day > world.campaign_now(keyword.campaign_id).today
            || !world.keyword_serves(keyword, day)
        {
            return Totals::default();
        }
        self.serving_day(day)
    }

    /// Metrics of a whole `day`, given that the bidder and its parents serve that day.
    pub fn serving_day(&self, day: Date) -> Totals {
        if let Some(set) = self.set_days.get(&day) {
            return *set;
        }
        let day_n = i64::from(day.to_julian_day()) as u64;
        let base = mix(&[self.seed, self.id as u64, day_n]);
        let noise = |salt: u64| unit(mix(&[base, salt]));
        let weekday = match day.weekday() {
            Weekday::Saturday | Weekday::Sunday => 1.15,
            _ => 1.0,
        };
        let season = 1.0 + 0.12 * ((day_n as f64) / 58.0).sin();
        let base_searches = match self.reach_before.iter().find(|(until, _)| day < *until) {
            Some((_, reach)) => self.head * reach * self.broad,
            None => self.base_searches,
        };
        let searches = base_searches * weekday * season * (0.8 + 0.4 * noise(1));

        let bid = self.bid.at(day);
        let (share, price) = self.auction(bid);
        let impressions = (searches * share * 0.9 + noise(2)).floor() as u64;

        let ttr = (self.relevance * (0.85 + 0.3 * noise(4))).min(0.5);
        let taps = ((impressions as f64) * ttr + noise(5)).floor() as u64;

        let raw_cpt = price * (0.92 + 0.16 * noise(6));
        let cpt = (((raw_cpt / self.minor as f64).round() as i64).max(1) * self.minor).min(bid);

        let tap_installs =
            ((taps as f64) * self.conversion * (0.9 + 0.2 * noise(9)) + noise(10)).floor() as u64;
        let tap_installs = tap_installs.min(taps);
        let tap_new = ((tap_installs as f64) * 0.88).round() as u64;
        // View-through installs: people who saw the ad and installed later without tapping.
        let views =
            ((tap_installs as f64) * 0.05 + (impressions as f64) * 0.0008 * noise(11) + noise(12))
                .floor() as u64;
        let view_new = ((views as f64) * 0.8).round() as u64;

        Totals {
            impressions,
            taps,
            tap_new_downloads: tap_new,
            tap_redownloads: tap_installs - tap_new,
            view_new_downloads: view_new,
            view_redownloads: views - view_new,
            spend: taps as i64 * cpt,
        }
    }
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
