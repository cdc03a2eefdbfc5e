//! Builds a [`World`] from a seed. Everything is drawn from seeded ChaCha streams, so the
//! same seed and "today" always give the same world; metrics are derived lazily later.
//! A campaign's budget follows its keywords' expected spend under the keyword model, so
//! the generation sits above [`crate::metrics`]; each campaign's tree is made in
//! `campaign`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use time::{Date, Duration, OffsetDateTime, Time};

use crate::world::money::minor_unit;
use crate::world::timeline::Timeline;
use crate::world::words::{CATEGORIES, NAME_PARTS, NAME_TAILS};
use crate::world::{
    AGENCY_ACCOUNTS, AGENCY_CAMPAIGNS, AGENCY_GROUPS, AdAccount, App, Id, Lifecycle, MID_KEYWORDS,
    Status, World, WorldConfig, WorldSize,
};

mod campaign;

/// Shape of one ad account's tree.
struct Shape {
    campaigns_per_app: usize,
    groups_per_campaign: usize,
    keywords_per_group: usize,
    /// Days before today a campaign starts (a range drawn from).
    campaign_age: std::ops::Range<i64>,
    /// Most days after its campaign's start an ad group (`group_lag`) or a keyword
    /// (`keyword_lag`) is created, exclusive.
    group_lag: i64,
    keyword_lag: i64,
}

impl Shape {
    /// An established account: campaigns of 200–400 days, keywords added over 4 months.
    fn established(campaigns_per_app: usize, groups: usize, keywords: usize) -> Self {
        Self {
            campaigns_per_app,
            groups_per_campaign: groups,
            keywords_per_group: keywords,
            campaign_age: 200..400,
            group_lag: 5,
            keyword_lag: 120,
        }
    }
}

const ACCOUNTS: &[(&str, &str, &str)] = &[
    ("USD", "America/Los_Angeles", "US"),
    ("EUR", "Europe/Berlin", "DE"),
    ("JPY", "Asia/Tokyo", "JP"),
];

impl World {
    /// Generates the world described by `config`.
    pub fn generate(config: WorldConfig) -> World {
        let today = config
            .today
            .unwrap_or_else(|| OffsetDateTime::now_utc().date());
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let org_id = rng.random_range(1_000_000..9_999_999);
        let user_id = rng.random_range(10_000_000..99_999_999);
        let mut world = World::empty(config.seed, today, at_noon(today), org_id, user_id);
        for i in 0..8 {
            world.add_app(&mut rng, i % CATEGORIES.len(), None);
        }
        let small = Shape::established(2, 3, 15);
        for (i, (currency, tz, home)) in ACCOUNTS.iter().enumerate() {
            world.add_account(&mut rng, i, currency, tz, home, 2, &small);
        }
        // The extra account of a preset draws from a stream of its own, so the small
        // world's three accounts are the same in every preset.
        match config.size {
            WorldSize::Small => {}
            WorldSize::Mid => {
                let mut mid_rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x5eed_0000_0b1d_0000);
                let mid = Shape {
                    campaign_age: 14..15,
                    group_lag: 1,
                    keyword_lag: 2,
                    ..Shape::established(1, 1, MID_KEYWORDS)
                };
                world.add_account(&mut mid_rng, 3, "USD", "America/Chicago", "US", 1, &mid);
            }
            WorldSize::Large => {
                let mut big_rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x5eed_b16b_a7c4_0000);
                let big = Shape::established(20, 50, 100);
                world.add_account(&mut big_rng, 3, "USD", "America/New_York", "US", 1, &big);
            }
            WorldSize::Agency => {
                let mut agency_rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x5eed_a6e7_c000_0000);
                let shape = Shape::established(AGENCY_CAMPAIGNS, AGENCY_GROUPS, 5);
                for i in 0..AGENCY_ACCOUNTS {
                    let (currency, tz, home) = ACCOUNTS[i % ACCOUNTS.len()];
                    world.add_account(&mut agency_rng, 3 + i, currency, tz, home, 1, &shape);
                }
            }
        }
        world.rebuild_index();
        world
    }

    fn add_app(&mut self, rng: &mut ChaCha8Rng, category: usize, owner: Option<Id>) -> i64 {
        let adam_id = rng.random_range(300_000_000..1_999_999_999);
        let (cat, phrases) = CATEGORIES[category];
        let name = format!("{}{}", pick(rng, NAME_PARTS), pick(rng, NAME_TAILS));
        let phrase = phrases[rng.random_range(0..phrases.len())];
        let app = App {
            adam_id,
            developer: format!(
                "{} {}",
                pick(rng, NAME_PARTS),
                if rng.random_bool(0.5) { "Labs" } else { "Inc." }
            ),
            title: format!("{name}: {}", capitalise(phrase)),
            subtitle: format!("The {phrase} app people love"),
            description: format!("{name} is a {phrase} app in {cat}. Simple, fast and private."),
            icon_url: format!(
                "https://is1-ssl.mzstatic.com/image/thumb/sandbox/{adam_id}/512x512bb.png"
            ),
            category: cat,
            name,
            owner,
        };
        self.apps.insert(adam_id, app);
        adam_id
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one call site per preset; a struct would only rename them"
    )]
    fn add_account(
        &mut self,
        rng: &mut ChaCha8Rng,
        index: usize,
        currency: &'static str,
        tz: &'static str,
        home: &str,
        apps: usize,
        shape: &Shape,
    ) {
        let id = self.next_id();
        let created = at_noon(self.today - Duration::days(rng.random_range(420..900)));
        let name = format!(
            "{} {}",
            pick(rng, NAME_PARTS),
            ["Studio", "Apps", "Media", "Games"][index % 4]
        );
        let account = AdAccount {
            id,
            name,
            currency,
            timezone: tz,
            payment_model: "PAYG",
            created,
        };
        self.accounts.insert(id, account);
        for a in 0..apps {
            let category = (index * 3 + a) % CATEGORIES.len();
            let adam_id = self.add_app(rng, category, Some(id));
            self.add_product_pages(id, adam_id, created);
            for c in 0..shape.campaigns_per_app {
                let deleted = index == 0 && a == apps - 1 && c == shape.campaigns_per_app - 1;
                self.add_campaign(rng, id, adam_id, category, home, (c, deleted), shape);
            }
        }
    }
}

/// An enabled lifecycle created `after` days past `start`, serving from the next day.
fn lifecycle(start: Date, after: i64) -> Lifecycle {
    let day = start + Duration::days(after);
    Lifecycle {
        status: Timeline::new(day, Status::Enabled),
        created: at_noon(day),
        modified: at_noon(day),
        serving_from: day.next_day().expect("date in range"),
        deleted_on: None,
    }
}

/// A UUID-shaped product page id derived from the app and an index.
pub fn page_id(adam_id: i64, index: usize) -> String {
    let h = crate::metrics::mix_pub(&[adam_id as u64, index as u64, 0x9a9e]);
    let l = crate::metrics::mix_pub(&[h, 1]);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xffff,
        l >> 48,
        l & 0xffff_ffff_ffff
    )
}

fn at_noon(day: Date) -> OffsetDateTime {
    day.with_time(Time::from_hms(12, 0, 0).expect("valid time"))
        .assume_utc()
}

/// `units` of the currency as micros, rounded to its minor unit (at least one).
fn round_to(units: f64, currency: &str) -> i64 {
    let minor = minor_unit(currency);
    (((units * 1e6) / minor as f64).round() as i64).max(1) * minor
}

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from[rng.random_range(0..from.len())]
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
