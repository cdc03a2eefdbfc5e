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

async fn upsert(
    conn: &mut AnyConnection,
    table: &str,
    columns: &[&str],
    keys: &[&str],
    rows: Vec<Vec<Val>>,
) -> Result<u64, sqlx::Error> {
    if rows.is_empty() {
        return Ok(0);
    }
    insert_rows(
        conn,
        table,
        columns,
        &[],
        &upsert_tail(columns, keys),
        &rows,
    )
    .await
}

/// Upserts apps by adam id.
pub async fn upsert_apps(
    conn: &mut AnyConnection,
    org_key: i64,
    apps: &[App],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = apps
        .iter()
        .map(|a| {
            vec![
                org_key.into(),
                a.adam_id.into(),
                a.app_name.as_str().into(),
                a.developer_name.clone().into(),
                a.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_apps",
        &[
            "org_key",
            "adam_id",
            "app_name",
            "developer_name",
            "body",
            "synced_at",
        ],
        &["org_key", "adam_id"],
        rows,
    )
    .await
}

/// Upserts campaigns by id (the user's `hidden` flag is kept).
pub async fn upsert_campaigns(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[Campaign],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|c| {
            vec![
                org_key.into(),
                c.id.into(),
                c.name.as_str().into(),
                c.adam_id.into(),
                c.status.as_str().into(),
                c.display_status.clone().into(),
                c.system_status.clone().into(),
                c.daily_budget_micros.into(),
                c.countries.clone().into(),
                c.start_time.clone().into(),
                c.end_time.clone().into(),
                c.creation_time.clone().into(),
                c.modification_time.clone().into(),
                c.deleted.into(),
                c.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_campaigns",
        &[
            "org_key",
            "id",
            "name",
            "adam_id",
            "status",
            "display_status",
            "system_status",
            "daily_budget_micros",
            "countries",
            "start_time",
            "end_time",
            "creation_time",
            "modification_time",
            "deleted",
            "body",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts ad groups by id.
pub async fn upsert_ad_groups(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[AdGroup],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|g| {
            vec![
                org_key.into(),
                g.id.into(),
                g.campaign_id.into(),
                g.name.as_str().into(),
                g.status.as_str().into(),
                g.display_status.clone().into(),
                g.system_status.clone().into(),
                g.default_bid_micros.into(),
                g.cpa_goal_micros.into(),
                g.automated_keywords_opt_in.into(),
                g.start_time.clone().into(),
                g.end_time.clone().into(),
                g.modification_time.clone().into(),
                g.deleted.into(),
                g.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_ad_groups",
        &[
            "org_key",
            "id",
            "campaign_id",
            "name",
            "status",
            "display_status",
            "system_status",
            "default_bid_micros",
            "cpa_goal_micros",
            "automated_keywords_opt_in",
            "start_time",
            "end_time",
            "modification_time",
            "deleted",
            "body",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts keywords by id.
pub async fn upsert_keywords(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[Keyword],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|k| {
            vec![
                org_key.into(),
                k.id.into(),
                k.campaign_id.into(),
                k.ad_group_id.into(),
                k.text.as_str().into(),
                k.match_type.as_str().into(),
                k.bid_micros.into(),
                k.status.as_str().into(),
                k.display_status.clone().into(),
                k.modification_time.clone().into(),
                k.deleted.into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_keywords",
        &[
            "org_key",
            "id",
            "campaign_id",
            "ad_group_id",
            "text",
            "match_type",
            "bid_micros",
            "status",
            "display_status",
            "modification_time",
            "deleted",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts negative keywords (campaign- and ad-group-level) by id.
pub async fn upsert_negative_keywords(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[NegativeKeyword],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|n| {
            vec![
                org_key.into(),
                n.id.into(),
                n.campaign_id.into(),
                n.ad_group_id.into(),
                n.text.as_str().into(),
                n.match_type.as_str().into(),
                n.status.as_str().into(),
                n.modification_time.clone().into(),
                n.deleted.into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_negative_keywords",
        &[
            "org_key",
            "id",
            "campaign_id",
            "ad_group_id",
            "text",
            "match_type",
            "status",
            "modification_time",
            "deleted",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts ads by id.
pub async fn upsert_ads(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[Ad],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|a| {
            vec![
                org_key.into(),
                a.id.into(),
                a.campaign_id.into(),
                a.ad_group_id.into(),
                a.creative_id.into(),
                a.name.as_str().into(),
                a.status.as_str().into(),
                a.display_status.clone().into(),
                a.system_status.clone().into(),
                a.modification_time.clone().into(),
                a.deleted.into(),
                a.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_ads",
        &[
            "org_key",
            "id",
            "campaign_id",
            "ad_group_id",
            "creative_id",
            "name",
            "status",
            "display_status",
            "system_status",
            "modification_time",
            "deleted",
            "body",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts creatives by id.
pub async fn upsert_creatives(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[Creative],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|c| {
            vec![
                org_key.into(),
                c.id.into(),
                c.name.as_str().into(),
                c.creative_type.clone().into(),
                c.product_page_id.clone().into(),
                c.system_status.clone().into(),
                c.deleted.into(),
                c.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_creatives",
        &[
            "org_key",
            "id",
            "name",
            "creative_type",
            "product_page_id",
            "system_status",
            "deleted",
            "body",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

/// Upserts product pages by id.
pub async fn upsert_product_pages(
    conn: &mut AnyConnection,
    org_key: i64,
    items: &[ProductPage],
    now: i64,
) -> Result<u64, sqlx::Error> {
    let rows = items
        .iter()
        .map(|p| {
            vec![
                org_key.into(),
                p.id.as_str().into(),
                p.adam_id.into(),
                p.name.as_str().into(),
                p.state.clone().into(),
                p.body.clone().into(),
                now.into(),
            ]
        })
        .collect();
    upsert(
        conn,
        "asa_product_pages",
        &[
            "org_key",
            "id",
            "adam_id",
            "name",
            "state",
            "body",
            "synced_at",
        ],
        &["org_key", "id"],
        rows,
    )
    .await
}

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
    insert_rows(
        conn,
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
    .await
}

/// The entity tables a complete listing covers, for [`mark_unlisted_deleted`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Campaigns,
    AdGroups,
    Keywords,
    NegativeKeywords,
    Ads,
    Creatives,
    ProductPages,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Campaigns => "asa_campaigns",
            Table::AdGroups => "asa_ad_groups",
            Table::Keywords => "asa_keywords",
            Table::NegativeKeywords => "asa_negative_keywords",
            Table::Ads => "asa_ads",
            Table::Creatives => "asa_creatives",
            Table::ProductPages => "asa_product_pages",
        }
    }
}

/// After a complete listing of `table` for `org_key` that stamped its rows with
/// `listed_at`, marks every row it did not return as deleted (product pages, which have no
/// such flag, are removed). Returns the rows changed.
pub async fn mark_unlisted_deleted(
    conn: &mut AnyConnection,
    org_key: i64,
    table: Table,
    listed_at: i64,
) -> Result<u64, sqlx::Error> {
    let sql = match table {
        Table::ProductPages => format!(
            "DELETE FROM {} WHERE org_key = $1 AND synced_at < $2",
            table.name()
        ),
        _ => format!(
            "UPDATE {} SET deleted = 1 WHERE org_key = $1 AND synced_at < $2 AND deleted = 0",
            table.name()
        ),
    };
    Ok(sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(listed_at)
        .execute(&mut *conn)
        .await?
        .rows_affected())
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
