//! Batched upserts of the synced entities (keyed by `org_key` and Apple's id), marking
//! those a complete listing no longer returned as deleted, and the search-term dimension.
//!
//! Every upsert stamps `synced_at` with the sync's start (unix seconds): after a complete
//! listing, [`mark_unlisted_deleted`] flags the rows of the group that this listing did not
//! stamp. A row is never removed (past metrics keep their names), except product pages,
//! which have no `deleted` column and are dropped when unlisted.

use sha2::{Digest, Sha256};
use sqlx::AnyConnection;

use super::{Val, insert_rows, upsert_tail};

/// An ad's or campaign's app (`asa_apps`).
#[derive(Debug, Clone, PartialEq)]
pub struct App {
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: Option<String>,
    pub body: Option<String>,
}

/// `asa_campaigns` (money in micros of the group's currency, times RFC 3339).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Campaign {
    pub id: i64,
    pub name: String,
    pub adam_id: Option<i64>,
    pub status: String,
    pub display_status: Option<String>,
    pub system_status: Option<String>,
    pub daily_budget_micros: Option<i64>,
    /// JSON list of country or region codes.
    pub countries: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub creation_time: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
    pub body: Option<String>,
}

/// `asa_ad_groups`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdGroup {
    pub id: i64,
    pub campaign_id: i64,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub system_status: Option<String>,
    pub default_bid_micros: Option<i64>,
    pub cpa_goal_micros: Option<i64>,
    pub automated_keywords_opt_in: bool,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
    pub body: Option<String>,
}

/// `asa_keywords`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Keyword {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
    pub bid_micros: Option<i64>,
    pub status: String,
    pub display_status: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
}

/// `asa_negative_keywords` (`ad_group_id` None: a campaign-level negative).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NegativeKeyword {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub text: String,
    pub match_type: String,
    pub status: String,
    pub modification_time: Option<String>,
    pub deleted: bool,
}

/// `asa_ads`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ad {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub creative_id: Option<i64>,
    pub name: String,
    pub status: String,
    pub display_status: Option<String>,
    pub system_status: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
    pub body: Option<String>,
}

/// `asa_creatives`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Creative {
    pub id: i64,
    pub name: String,
    pub creative_type: Option<String>,
    pub product_page_id: Option<String>,
    pub system_status: Option<String>,
    pub deleted: bool,
    pub body: Option<String>,
}

/// `asa_product_pages` (ids are strings at Apple).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProductPage {
    pub id: String,
    pub adam_id: i64,
    pub name: String,
    pub state: Option<String>,
    pub body: Option<String>,
}

/// A search term of a report (`asa_search_terms`); its id is [`search_term_id`].
#[derive(Debug, Clone, PartialEq)]
pub struct SearchTerm {
    pub id: i64,
    pub campaign_id: i64,
    pub ad_group_id: i64,
    pub keyword_id: Option<i64>,
    pub text: String,
    /// AUTO (Search Match) or TARGETED.
    pub source: String,
}

impl SearchTerm {
    /// The term with its stable id.
    pub fn new(
        campaign_id: i64,
        ad_group_id: i64,
        keyword_id: Option<i64>,
        source: &str,
        text: &str,
    ) -> SearchTerm {
        SearchTerm {
            id: search_term_id(ad_group_id, keyword_id, source, text),
            campaign_id,
            ad_group_id,
            keyword_id,
            text: text.to_string(),
            source: source.to_string(),
        }
    }
}

/// The stable id of a search term: the first 8 bytes of SHA-256 over
/// `"<ad group id>\n<keyword id or 0>\n<source>\n<text>"` (UTF-8), big-endian, with the top
/// bit cleared — a non-negative 63-bit integer that is the same in every process, release
/// and platform (unlike Rust's `DefaultHasher`). Apple reports search terms without ids;
/// this one lets a re-synced day find the same term. Collisions are astronomically unlikely
/// (2^-63 per pair).
pub fn search_term_id(ad_group_id: i64, keyword_id: Option<i64>, source: &str, text: &str) -> i64 {
    let mut h = Sha256::new();
    h.update(
        format!(
            "{ad_group_id}\n{}\n{source}\n{text}",
            keyword_id.unwrap_or(0)
        )
        .as_bytes(),
    );
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) >> 1) as i64
}

/// A synced entity type: its table and one row's values. Every row is keyed by `org_key`
/// and Apple's id, stamped with `synced_at`, and replaced whole by a newer listing.
pub trait Entity {
    /// The table.
    const TABLE: &'static str;
    /// The column of Apple's id (with `org_key`, the primary key).
    const KEY: &'static str = "id";
    /// The columns after `org_key` and before `synced_at`, the key first.
    const COLUMNS: &'static [&'static str];
    /// Whether a row missing from a complete listing is flagged `deleted` (past metrics
    /// keep its name) rather than removed (product pages, which have no such flag).
    const SOFT_DELETE: bool = true;
    /// The values of [`Entity::COLUMNS`], in that order.
    fn values(&self) -> Vec<Val>;
}

/// Upserts `items` of group `org_key` by their key, stamping them with `now` (unix seconds).
/// Campaigns keep the user's `hidden` flag: it is not one of their synced columns.
pub async fn upsert<T: Entity>(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[T],
    now: i64,
) -> Result<u64, sqlx::Error> {
    if items.is_empty() {
        return Ok(0);
    }
    let columns: Vec<&str> = std::iter::once("org_key")
        .chain(T::COLUMNS.iter().copied())
        .chain(std::iter::once("synced_at"))
        .collect();
    let rows: Vec<Vec<Val>> = items
        .iter()
        .map(|item| {
            let mut row = Vec::with_capacity(columns.len());
            row.push(org_key.into());
            row.extend(item.values());
            row.push(now.into());
            row
        })
        .collect();
    let written = insert_rows(
        &mut *conn,
        T::TABLE,
        &columns,
        &[],
        &upsert_tail(&columns, &["org_key", T::KEY]),
        &rows,
    )
    .await?;
    super::entities_changed(&mut *conn, org_key).await?;
    Ok(written)
}

/// A field as a bound value (the column types of the entity tables).
trait Bound {
    fn bound(&self) -> Val;
}
impl Bound for i64 {
    fn bound(&self) -> Val {
        (*self).into()
    }
}
impl Bound for Option<i64> {
    fn bound(&self) -> Val {
        (*self).into()
    }
}
impl Bound for bool {
    fn bound(&self) -> Val {
        (*self).into()
    }
}
impl Bound for String {
    fn bound(&self) -> Val {
        self.as_str().into()
    }
}
impl Bound for Option<String> {
    fn bound(&self) -> Val {
        self.clone().into()
    }
}

/// Implements [`Entity`] for a struct whose listed fields are its table's columns, by the
/// same names and in that order (the key first).
macro_rules! entity {
    ($ty:ty, $table:literal $(, key = $key:literal)? $(, soft_delete = $soft:literal)?: $($field:ident),+ $(,)?) => {
        impl Entity for $ty {
            const TABLE: &'static str = $table;
            $(const KEY: &'static str = $key;)?
            $(const SOFT_DELETE: bool = $soft;)?
            const COLUMNS: &'static [&'static str] = &[$(stringify!($field)),+];
            fn values(&self) -> Vec<Val> {
                vec![$(self.$field.bound()),+]
            }
        }
    };
}

entity!(App, "asa_apps", key = "adam_id": adam_id, app_name, developer_name, body);
entity!(Campaign, "asa_campaigns":
    id, name, adam_id, status, display_status, system_status, daily_budget_micros, countries,
    start_time, end_time, creation_time, modification_time, deleted, body);
entity!(AdGroup, "asa_ad_groups":
    id, campaign_id, name, status, display_status, system_status, default_bid_micros,
    cpa_goal_micros, automated_keywords_opt_in, start_time, end_time, modification_time,
    deleted, body);
entity!(Keyword, "asa_keywords":
    id, campaign_id, ad_group_id, text, match_type, bid_micros, status, display_status,
    modification_time, deleted);
entity!(NegativeKeyword, "asa_negative_keywords":
    id, campaign_id, ad_group_id, text, match_type, status, modification_time, deleted);
entity!(Ad, "asa_ads":
    id, campaign_id, ad_group_id, creative_id, name, status, display_status, system_status,
    modification_time, deleted, body);
entity!(Creative, "asa_creatives":
    id, name, creative_type, product_page_id, system_status, deleted, body);
entity!(ProductPage, "asa_product_pages", soft_delete = false: id, adam_id, name, state, body);

/// Adds search terms not yet known (a term's fields never change: its id is their hash).
pub async fn upsert_search_terms(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[SearchTerm],
) -> Result<u64, sqlx::Error> {
    if items.is_empty() {
        return Ok(0);
    }
    let rows: Vec<Vec<Val>> = items
        .iter()
        .map(|t| {
            vec![
                org_key.into(),
                t.id.into(),
                t.campaign_id.into(),
                t.ad_group_id.into(),
                t.keyword_id.into(),
                t.text.as_str().into(),
                t.source.as_str().into(),
            ]
        })
        .collect();
    let written = insert_rows(
        &mut *conn,
        "asa_search_terms",
        &[
            "org_key",
            "id",
            "campaign_id",
            "ad_group_id",
            "keyword_id",
            "text",
            "source",
        ],
        &[],
        "ON CONFLICT (org_key, id) DO NOTHING",
        &rows,
    )
    .await?;
    if written > 0 {
        super::entities_changed(&mut *conn, org_key).await?;
    }
    Ok(written)
}

/// After a complete listing of `T` for `org_key` that stamped its rows with `listed_at`,
/// marks every row it did not return as deleted (or removes it, see
/// [`Entity::SOFT_DELETE`]). Returns the rows changed.
pub async fn mark_unlisted_deleted<T: Entity>(
    conn: &mut AnyConnection,
    org_key: i64,
    listed_at: i64,
) -> Result<u64, sqlx::Error> {
    let sql = if T::SOFT_DELETE {
        format!(
            "UPDATE {} SET deleted = 1 WHERE org_key = $1 AND synced_at < $2 AND deleted = 0",
            T::TABLE
        )
    } else {
        format!(
            "DELETE FROM {} WHERE org_key = $1 AND synced_at < $2",
            T::TABLE
        )
    };
    let changed = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(listed_at)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if changed > 0 {
        super::entities_changed(&mut *conn, org_key).await?;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::search_term_id;

    #[test]
    fn search_term_ids_are_stable_63_bit_and_distinguish_every_part() {
        let id = search_term_id(10, Some(20), "TARGETED", "photo editor");
        assert!(id >= 0);
        // Pinned: the id must never change between releases (it keys stored rows).
        assert_eq!(id, search_term_id(10, Some(20), "TARGETED", "photo editor"));
        assert_ne!(id, search_term_id(11, Some(20), "TARGETED", "photo editor"));
        assert_ne!(id, search_term_id(10, None, "TARGETED", "photo editor"));
        assert_ne!(id, search_term_id(10, Some(20), "AUTO", "photo editor"));
        assert_ne!(
            id,
            search_term_id(10, Some(20), "TARGETED", "photo editors")
        );
        assert_eq!(
            search_term_id(1, None, "AUTO", "x"),
            search_term_id(1, Some(0), "AUTO", "x")
        );
    }
}
