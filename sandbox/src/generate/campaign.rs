//! One generated campaign: its negatives, ad groups with their ads and keywords (bids around
//! each keyword's market price), and a daily budget from the keywords' expected spend —
//! one campaign in five budget-limited; and an app's product pages with their creatives.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use time::{Date, Duration, OffsetDateTime};

use super::{Shape, lifecycle, page_id, round_to};
use crate::metrics::{KeywordModel, market_cpt};
use crate::world::money::usd_rate;
use crate::world::timeline::Timeline;
use crate::world::words::{CATEGORIES, COUNTRIES, keyword_text};
use crate::world::{
    Ad, AdGroup, Campaign, Creative, CreativeType, Id, Keyword, MatchType, NegativeKeyword,
    ProductPage, Status, World,
};

impl World {
    #[expect(
        clippy::too_many_arguments,
        reason = "generation context passed down one level"
    )]
    pub(super) fn add_campaign(
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
    pub(super) fn add_product_pages(&mut self, account: Id, adam_id: i64, created: OffsetDateTime) {
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
