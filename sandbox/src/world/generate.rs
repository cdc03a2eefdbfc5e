//! Builds a [`World`] from a seed. Everything is drawn from seeded ChaCha streams, so the
//! same seed and "today" always give the same world; metrics are derived lazily later.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use time::{Date, Duration, OffsetDateTime, Time};

use super::money::{minor_unit, usd_rate};
use super::timeline::Timeline;
use super::words::{CATEGORIES, COUNTRIES, NAME_PARTS, NAME_TAILS, keyword_text};
use super::{
    Ad, AdAccount, AdGroup, App, Campaign, Creative, CreativeType, Id, Keyword, Lifecycle,
    MatchType, NegativeKeyword, ProductPage, Status, World,
};
use crate::metrics::{KeywordModel, market_cpt};

/// How big a world to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum WorldSize {
    /// Three ad accounts with a few hundred keywords: demos and tests.
    #[default]
    Small,
    /// The small world plus one ad account with one young campaign whose one ad group holds
    /// [`MID_KEYWORDS`] keywords: bulk edits of 2,000 items, at a sync cost close to the
    /// small world's (two weeks of history).
    Mid,
    /// The small world plus one ad account with 100,000 keywords: sync and report benchmarks.
    Large,
    /// The small world plus [`AGENCY_ACCOUNTS`] ad accounts of one app each, every one with
    /// [`AGENCY_CAMPAIGNS`] campaigns of [`AGENCY_GROUPS`] ad groups of 5 keywords: many ad
    /// accounts, each under its own rate limit (`searchdeck bench rules`: scheduled rules
    /// across 50 ad accounts).
    Agency,
}

/// Keywords in the mid-size world's one large ad group.
pub const MID_KEYWORDS: usize = 2_200;
/// Ad accounts the agency world adds to the small world's three.
pub const AGENCY_ACCOUNTS: usize = 50;
/// Campaigns of each of the agency world's added ad accounts.
pub const AGENCY_CAMPAIGNS: usize = 20;
/// Ad groups of each of those campaigns.
pub const AGENCY_GROUPS: usize = 3;

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct WorldConfig {
    pub seed: u64,
    pub size: WorldSize,
    /// The simulated today; `None` means the current UTC date.
    pub today: Option<Date>,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            seed: 42,
            size: WorldSize::Small,
            today: None,
        }
    }
}

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
        let mut world = World {
            seed: config.seed,
            origin: today,
            now: at_noon(today),
            today,
            org_id: rng.random_range(1_000_000..9_999_999),
            user_id: rng.random_range(10_000_000..99_999_999),
            accounts: BTreeMap::new(),
            apps: BTreeMap::new(),
            campaigns: BTreeMap::new(),
            ad_groups: BTreeMap::new(),
            keywords: BTreeMap::new(),
            negative_keywords: BTreeMap::new(),
            ads: BTreeMap::new(),
            creatives: BTreeMap::new(),
            product_pages: BTreeMap::new(),
            audit: Vec::new(),
            index: Default::default(),
            next_id: 100_000_000,
            next_txn: 0,
            current_txn: String::new(),
            pending: Vec::new(),
            journaled_audit: 0,
            version: 0,
            written: Default::default(),
            days: None,
            set_days: Default::default(),
        };
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

    #[expect(
        clippy::too_many_arguments,
        reason = "generation context passed down one level"
    )]
    fn add_campaign(
        &mut self,
        rng: &mut ChaCha8Rng,
        account: Id,
        adam_id: i64,
        category: usize,
        home: &str,
        (index, deleted): (usize, bool),
        shape: &Shape,
    ) {
        let currency = self.accounts[&account].currency;
        let rate = usd_rate(currency);
        let id = self.next_id();
        let start = self.today - Duration::days(rng.random_range(shape.campaign_age.clone()));
        let mut life = lifecycle(start, rng.random_range(0..3));
        if index % 3 == 1 {
            life.status.set(
                self.today - Duration::days(rng.random_range(5..40)),
                Status::Paused,
            );
        }
        if deleted {
            life.deleted_on = Some(self.today - Duration::days(60));
        }
        let mut countries = vec![home.to_string()];
        for (code, _) in COUNTRIES.iter().filter(|(c, _)| *c != home) {
            if rng.random_bool(0.25) {
                countries.push((*code).to_string());
            }
        }
        let app_name = self.apps[&adam_id].name.clone();
        let kind = ["Brand", "Generic", "Competitor", "Discovery"][index % 4];
        let campaign = Campaign {
            id,
            ad_account_id: account,
            name: format!("{app_name} - {kind} - {}", countries.join("/")),
            adam_id,
            countries,
            // Set from the keywords' expected spend below.
            daily_budget: Timeline::new(start, 0),
            start_time: life.created,
            end_time: None,
            life,
            countries_before: Vec::new(),
            system_reasons: Vec::new(),
        };
        self.campaigns.insert(id, campaign);
        let phrases = CATEGORIES[category].1;
        let neg_words = ["free", "cracked", "hack", "login", "download"];
        for n in 0..3 {
            let text = neg_words[(index + n) % neg_words.len()].to_string();
            self.add_negative(id, None, account, text, start);
        }
        for g in 0..shape.groups_per_campaign {
            let group_id = self.next_id();
            let mut life = lifecycle(start, rng.random_range(0..shape.group_lag));
            if g % 4 == 3 {
                life.status.set(
                    self.today - Duration::days(rng.random_range(10..90)),
                    Status::Paused,
                );
            }
            let group = AdGroup {
                id: group_id,
                campaign_id: id,
                ad_account_id: account,
                name: format!(
                    "{kind} {}",
                    ["Exact", "Broad", "Long tail", "Seasonal"][g % 4]
                ),
                default_bid: round_to(rng.random_range(0.6..2.5) * rate, currency),
                cpa_cap: rng
                    .random_bool(0.5)
                    .then(|| round_to(rng.random_range(2.0..8.0) * rate, currency)),
                automated_keywords_opt_in: g % 4 == 1,
                device_classes: vec!["IPHONE", "IPAD"],
                start_time: life.created,
                end_time: None,
                life: life.clone(),
                before: Vec::new(),
            };
            self.ad_groups.insert(group_id, group);
            self.add_negative(
                id,
                Some(group_id),
                account,
                format!("{} cheap", phrases[g % phrases.len()]),
                start,
            );
            let creatives: Vec<(Id, String)> = self
                .creatives
                .values()
                .filter(|c| c.adam_id == adam_id)
                .map(|c| (c.id, c.name.clone()))
                .collect();
            let ads = if g % 3 == 0 { creatives.len() } else { 1 };
            for (creative_id, creative_name) in creatives.into_iter().take(ads) {
                let ad_id = self.next_id();
                let ad = Ad {
                    id: ad_id,
                    ad_group_id: group_id,
                    campaign_id: id,
                    ad_account_id: account,
                    creative_id,
                    name: format!("{creative_name} ad"),
                    life: life.clone(),
                };
                self.ads.insert(ad_id, ad);
            }
            for k in 0..shape.keywords_per_group {
                let text = keyword_text(
                    phrases,
                    (index * shape.groups_per_campaign + g) * shape.keywords_per_group + k,
                );
                let match_type = if rng.random_bool(0.7) {
                    MatchType::Exact
                } else {
                    MatchType::Broad
                };
                let market = market_cpt(self.seed, &text, currency) as f64;
                let bid = round_to(market * rng.random_range(0.5..1.8) / 1e6, currency);
                let mut life = lifecycle(start, rng.random_range(0..shape.keyword_lag));
                if rng.random_bool(0.1) {
                    // Paused some day of the last two months, but not before it served.
                    let paused = self.today - Duration::days(rng.random_range(1..60));
                    life.status
                        .set(paused.max(life.serving_from), Status::Paused);
                }
                let kw_id = self.next_id();
                let keyword = Keyword {
                    id: kw_id,
                    ad_group_id: group_id,
                    campaign_id: id,
                    ad_account_id: account,
                    text,
                    match_type,
                    bid: Timeline::new(life.serving_from, bid),
                    life,
                };
                self.keywords.insert(kw_id, keyword);
            }
        }
        // About one campaign in five is budget-limited; the others have headroom, so their
        // spend follows their bids.
        let expected: f64 = self
            .keywords
            .range(id..)
            .map(|(_, k)| KeywordModel::new(self, k).expected_spend(k.bid.current()))
            .sum();
        let factor = if rng.random_bool(0.2) {
            rng.random_range(0.55..0.9)
        } else {
            rng.random_range(1.6..3.0)
        };
        let budget = round_to((expected * factor / 1e6).max(5.0 * rate), currency);
        self.campaigns
            .get_mut(&id)
            .expect("just added")
            .daily_budget = Timeline::new(start, budget);
    }

    /// The default product page, two custom ones, and a creative for the default and the
    /// first custom page.
    fn add_product_pages(&mut self, account: Id, adam_id: i64, created: OffsetDateTime) {
        let app_name = self.apps[&adam_id].name.clone();
        for (i, name) in ["Default", "Feature spotlight", "Seasonal offer"]
            .iter()
            .enumerate()
        {
            let id = page_id(adam_id, i);
            let page = ProductPage {
                id: id.clone(),
                adam_id,
                name: format!("{app_name} {name}"),
                custom: i > 0,
                state: "READY_FOR_DISTRIBUTION",
                created,
            };
            self.product_pages.insert(id.clone(), page);
            if i < 2 {
                let creative_id = self.next_id();
                let creative = Creative {
                    id: creative_id,
                    ad_account_id: account,
                    name: format!("{app_name} {name}"),
                    kind: if i == 0 {
                        CreativeType::DefaultProductPage
                    } else {
                        CreativeType::CustomProductPage
                    },
                    adam_id,
                    product_page_id: id,
                    life: lifecycle(created.date(), 0),
                };
                self.creatives.insert(creative_id, creative);
            }
        }
    }

    fn add_negative(
        &mut self,
        campaign: Id,
        group: Option<Id>,
        account: Id,
        text: String,
        start: Date,
    ) {
        let id = self.next_id();
        let negative = NegativeKeyword {
            id,
            campaign_id: campaign,
            ad_group_id: group,
            ad_account_id: account,
            text,
            match_type: MatchType::Exact,
            life: lifecycle(start, 0),
        };
        self.negative_keywords.insert(id, negative);
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
