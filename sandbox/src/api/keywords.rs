//! Keywords: single and bulk create/update/delete, query, get. A new keyword serves from
//! the next simulated day; bid and status changes apply from then on.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::rules::{self, MatchTypeIn};
use super::writable::{self, Writable};
use super::{MoneyIn, entity, micros_opt};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{AdGroup, Id, Keyword, Lifecycle, MatchType, Status, World};

pub fn router() -> Router<Arc<Sandbox>> {
    writable::routes::<Keyword>()
}

/// `KeywordCreate` / `BulkKeywordCreate`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeywordCreate {
    ad_group_id: i64,
    text: String,
    match_type: Option<MatchTypeIn>,
    bid: Option<MoneyIn>,
    status: Option<Status>,
}

/// `KeywordUpdate` / `BulkKeywordUpdate` (which names the `id`), closed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordUpdate {
    id: Option<i64>,
    bid: Option<MoneyIn>,
    status: Option<Status>,
}

/// A checked keyword update.
pub struct Change {
    id: Id,
    bid: Option<i64>,
    status: Option<Status>,
}

/// Keys of live keywords, to refuse duplicates in an ad group.
fn existing(w: &World, account: Id) -> HashSet<(Id, String, &'static str)> {
    w.keywords
        .values()
        .filter(|k| k.ad_account_id == account && !k.life.deleted())
        .map(|k| (k.ad_group_id, k.text.to_lowercase(), k.match_type.as_str()))
        .collect()
}

/// A checked keyword bid: in the account's currency, at least [`rules::min_bid`].
fn keyword_bid(bid: Option<&MoneyIn>, currency: &str) -> Result<Option<i64>, ApiError> {
    micros_opt(bid, "bid", currency)?
        .map(|v| rules::at_least(v, rules::min_bid(currency), "bid", currency))
        .transpose()
}

impl Writable for Keyword {
    type Create = KeywordCreate;
    type Update = KeywordUpdate;
    type Change = Change;
    type Taken = HashSet<(Id, String, &'static str)>;

    fn taken(w: &World, account: Id) -> Self::Taken {
        existing(w, account)
    }

    fn plan_create(
        w: &World,
        account: Id,
        seen: &mut Self::Taken,
        b: &KeywordCreate,
    ) -> Result<Keyword, ApiError> {
        rules::keyword_text(&b.text)?;
        let group = entity::live_parent::<AdGroup>(w, account, b.ad_group_id, "adGroupId")?;
        let match_type = b
            .match_type
            .map_or(Ok(MatchType::Broad), |m| m.simulated("matchType"))?;
        let currency = w.accounts[&account].currency;
        let bid = keyword_bid(b.bid.as_ref(), currency)?.unwrap_or(group.default_bid);
        if !seen.insert((
            b.ad_group_id,
            b.text.trim().to_lowercase(),
            match_type.as_str(),
        )) {
            return Err(ApiError::invalid(
                "DUPLICATE_KEYWORD",
                "text",
                format!(
                    "{:?} ({}) already exists in ad group {}",
                    b.text,
                    match_type.as_str(),
                    b.ad_group_id
                ),
            ));
        }
        let now = w.now;
        let from = w.effective_day(account);
        let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
        Ok(Keyword {
            id: 0,
            ad_group_id: group.id,
            campaign_id: group.campaign_id,
            ad_account_id: account,
            text: b.text.trim().to_string(),
            match_type,
            bid: Timeline::new(from, bid),
            life,
        })
    }

    fn update_id(b: &KeywordUpdate) -> Option<Id> {
        b.id
    }

    fn plan_update(
        w: &World,
        account: Id,
        id: Option<Id>,
        b: &KeywordUpdate,
    ) -> Result<Change, ApiError> {
        let id = id.ok_or_else(|| ApiError::required("id"))?;
        entity::live::<Keyword>(w, account, id)?;
        let currency = w.accounts[&account].currency;
        Ok(Change {
            id,
            bid: keyword_bid(b.bid.as_ref(), currency)?,
            status: b.status,
        })
    }

    fn apply_update(w: &mut World, c: Change) -> Value {
        entity::modify(w, c.id, |k: &mut Keyword, from| {
            if let Some(bid) = c.bid {
                k.bid.set(from, bid);
            }
            if let Some(status) = c.status {
                k.life.status.set(from, status);
            }
        })
    }
}
