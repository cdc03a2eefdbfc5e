//! Apple's search popularity per search text and storefront (`search_popularity`): the
//! v1 search-term popularity (`searchPopularity1to100`), shared by every workspace. Written
//! by the weekly `refresh-popularity` job and by the keyword collector ([`put_many`]); read
//! by the KEYWORDS and SEARCHTERMS report levels' `popularity` column and the suggester
//! ([`get_many`]). Texts are stored [`normalise`]d, so "Photo-Editor!" and "photoeditor"
//! are one row.

use std::collections::HashMap;

use sqlx::Row;

use super::{Exec, placeholders};

/// How long a fetched popularity stays fresh (Apple publishes weekly).
pub const FRESH_MS: i64 = 7 * 24 * 3600 * 1000;

/// Most rows one [`put_many`] writes (4 binds each, well under both backends' limits).
pub const PUT_MAX: usize = 500;

/// Most texts one [`get_many`] or [`fresh`] looks up.
pub const GET_MAX: usize = 1000;

/// A text as docs/product.md#5-keyword-lists parses keyword lists, the one rule of the suggester's
/// lists and dedupe ([`crate::text::clean`]): punctuation and symbols removed, lower-cased,
/// runs of spaces collapsed, trimmed. Letters and digits of every script are kept.
pub fn normalise(text: &str) -> String {
    crate::text::clean(text)
}

/// One stored popularity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Popularity {
    /// The search text, [`normalise`]d.
    pub text: String,
    /// Upper-case ISO country or region code.
    pub country: String,
    /// 1–100; None when Apple published none for the text.
    pub popularity: Option<i64>,
    /// When Apple was asked (ms).
    pub fetched_at: i64,
}

/// Saves `rows` (at most [`PUT_MAX`]; callers chunk), replacing what was stored for the same
/// text and country. Texts must be [`normalise`]d already.
pub async fn put_many(ex: impl Exec<'_>, rows: &[Popularity]) -> Result<(), sqlx::Error> {
    assert!(
        rows.len() <= PUT_MAX,
        "put_many takes at most {PUT_MAX} rows"
    );
    if rows.is_empty() {
        return Ok(());
    }
    // One row per key per statement: PostgreSQL refuses to update a row twice in one
    // statement, so a duplicate keeps its last value.
    let mut last: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        last.insert((r.text.as_str(), r.country.as_str()), i);
    }
    let mut kept: Vec<usize> = last.into_values().collect();
    kept.sort_unstable();
    let values = (0..kept.len())
        .map(|i| {
            let b = i * 4;
            format!("(${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4)
        })
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO search_popularity (text, country, popularity, fetched_at) VALUES {values} \
         ON CONFLICT (text, country) DO UPDATE SET popularity = excluded.popularity, \
         fetched_at = excluded.fetched_at"
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for i in kept {
        let r = &rows[i];
        q = q
            .bind(&r.text)
            .bind(&r.country)
            .bind(r.popularity)
            .bind(r.fetched_at);
    }
    q.execute(ex).await?;
    Ok(())
}

/// The stored popularity of each of `texts` (at most [`GET_MAX`], [`normalise`]d) in
/// `countries` (all storefronts when empty), rows that exist only.
pub async fn get_many(
    ex: impl Exec<'_>,
    texts: &[String],
    countries: &[String],
) -> Result<Vec<Popularity>, sqlx::Error> {
    assert!(
        texts.len() <= GET_MAX,
        "get_many takes at most {GET_MAX} texts"
    );
    if texts.is_empty() {
        return Ok(Vec::new());
    }
    let mut sql = format!(
        "SELECT text, country, popularity, fetched_at FROM search_popularity WHERE text IN ({})",
        placeholders(1, texts.len())
    );
    if !countries.is_empty() {
        sql.push_str(&format!(
            " AND country IN ({})",
            placeholders(texts.len() + 1, countries.len())
        ));
    }
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for t in texts.iter().chain(countries) {
        q = q.bind(t);
    }
    q.fetch_all(ex)
        .await?
        .iter()
        .map(|r| {
            Ok(Popularity {
                text: r.try_get(0)?,
                country: r.try_get(1)?,
                popularity: r.try_get(2)?,
                fetched_at: r.try_get(3)?,
            })
        })
        .collect()
}

/// Which of `texts` (at most [`GET_MAX`], [`normalise`]d) were fetched for `country` at or
/// after `since` (ms): the ones a refresh can skip.
pub async fn fresh(
    ex: impl Exec<'_>,
    country: &str,
    texts: &[String],
    since: i64,
) -> Result<Vec<String>, sqlx::Error> {
    assert!(
        texts.len() <= GET_MAX,
        "fresh takes at most {GET_MAX} texts"
    );
    if texts.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT text FROM search_popularity WHERE country = $1 AND fetched_at >= $2 AND text IN ({})",
        placeholders(3, texts.len())
    );
    let mut q = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(country)
        .bind(since);
    for t in texts {
        q = q.bind(t);
    }
    q.fetch_all(ex).await
}

/// The texts of a synced campaign group's keywords and search terms (not deleted), each with
/// its campaign's countries or regions (JSON list text as synced): what the weekly refresh
/// asks Apple about. Texts are as synced (callers [`normalise`] them).
pub async fn synced_texts(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<Vec<(String, Option<String>)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT k.text, c.countries FROM asa_keywords k \
         JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         WHERE k.org_key = $1 AND k.deleted = 0 \
         UNION \
         SELECT s.text, c.countries FROM asa_search_terms s \
         JOIN asa_campaigns c ON c.org_key = s.org_key AND c.id = s.campaign_id \
         WHERE s.org_key = $1",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

/// Every synced campaign group as (org key, connection id, campaign group id), by org key:
/// what the weekly refresh walks.
pub async fn synced_orgs(ex: impl Exec<'_>) -> Result<Vec<(i64, String, i64)>, sqlx::Error> {
    let rows = sqlx::query("SELECT org_key, account_id, org_id FROM sync_orgs ORDER BY org_key")
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn texts_normalise_as_keyword_lists_do() {
        assert_eq!(normalise("  Photo-Editor!! "), "photoeditor");
        assert_eq!(normalise("B&W   photos"), "bw photos");
        assert_eq!(normalise("Éditeur photo"), "éditeur photo");
        assert_eq!(normalise("写真 編集"), "写真 編集");
        assert_eq!(normalise("?!"), "");
    }
}
