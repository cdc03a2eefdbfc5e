//! Negative keyword lists (docs/product.md#7-the-calls-it-makes `list/*`, docs/api/creation.md
//! "Negative keyword lists"): named lists of negative keywords of a workspace, their terms (text
//! and match type) and the places they are applied to (a campaign, or an ad group of one, in a
//! campaign group reached through one of the workspace's connections), as migration
//! `20261128002000_negative_lists.sql` keeps them. Apple has no shared lists; the
//! `apply-negative-lists` job makes Apple's negatives at each place match the lists, and
//! records here the negatives it makes ([`claim`], before sending the create) so that it
//! only ever deletes what a list made.
//!
//! Also the one read the lists need of the synced data: the keywords a place bids on
//! ([`bid_keywords`]), for the conflict check before applying.

use sqlx::Row;

use super::Exec;

/// A list as the list routes show it (its terms are read apart: [`keywords`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ListRow {
    pub id: String,
    pub workspace_id: String,
    pub name: String,
    /// The last apply job's task, if any.
    pub task_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// How many terms the list holds.
    pub keywords_count: i64,
    /// How many places (campaigns and ad groups) it is applied to.
    pub places_count: i64,
}

/// A term of a list: text as docs/product.md#5-keyword-lists cleans it, match type `EXACT` or
/// `BROAD`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ListKeyword {
    pub text: String,
    pub match_type: String,
}

/// A place a list is applied to: campaign `campaign_id` of campaign group `org_id` through
/// connection `account_id`, at campaign level (`ad_group_id` None) or in ad group
/// `ad_group_id`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    pub account_id: String,
    pub org_id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub campaign_name: String,
    pub ad_group_name: Option<String>,
}

impl Place {
    /// The place without its names: what identifies it.
    pub fn key(&self) -> (String, i64, i64, Option<i64>) {
        (
            self.account_id.clone(),
            self.org_id,
            self.campaign_id,
            self.ad_group_id,
        )
    }
}

/// The unique name key of a list name: trimmed, lower-cased.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

const SELECT: &str = "SELECT l.id, l.workspace_id, l.name, l.task_id, l.created_at, l.updated_at, \
       (SELECT COUNT(*) FROM negative_list_keywords k WHERE k.list_id = l.id) AS keywords_count, \
       (SELECT COUNT(*) FROM negative_list_places p WHERE p.list_id = l.id) AS places_count \
       FROM negative_lists l";

fn list_row(r: &sqlx::any::AnyRow) -> Result<ListRow, sqlx::Error> {
    Ok(ListRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        name: r.try_get("name")?,
        task_id: r.try_get("task_id")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
        keywords_count: r.try_get("keywords_count")?,
        places_count: r.try_get("places_count")?,
    })
}

/// Creates list `id` named `name` in `workspace_id`; a name taken in the workspace (trimmed,
/// case-insensitive) fails with a unique violation.
pub async fn create(
    ex: impl Exec<'_>,
    id: &str,
    workspace_id: &str,
    name: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO negative_lists (id, workspace_id, name, name_key, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(id)
    .bind(workspace_id)
    .bind(name.trim())
    .bind(name_key(name))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Renames list `id` and stamps it updated; a name taken fails with a unique violation.
pub async fn rename(ex: impl Exec<'_>, id: &str, name: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE negative_lists SET name = $2, name_key = $3, updated_at = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(name.trim())
    .bind(name_key(name))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records the task of list `id`'s latest apply job and stamps it updated.
pub async fn set_task(
    ex: impl Exec<'_>,
    id: &str,
    task_id: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE negative_lists SET task_id = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(task_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// List `id` of `workspace_id`, if any.
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<ListRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE l.workspace_id = $1 AND l.id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .map(|r| list_row(&r))
    .transpose()
}

/// Every list of `workspace_id`, by name then id.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<ListRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE l.workspace_id = $1 ORDER BY l.name_key, l.id"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(list_row)
    .collect()
}

/// Deletes list `id` of `workspace_id` with its terms and places; false when there was none.
pub async fn delete(ex: impl Exec<'_>, workspace_id: &str, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM negative_lists WHERE workspace_id = $1 AND id = $2")
        .bind(workspace_id)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The terms of list `id`, in the order saved.
pub async fn keywords(ex: impl Exec<'_>, id: &str) -> Result<Vec<ListKeyword>, sqlx::Error> {
    sqlx::query(
        "SELECT text, match_type FROM negative_list_keywords WHERE list_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(keyword_row)
    .collect()
}

/// Removes every term of list `id` (before [`insert_keywords`] writes the new ones).
pub async fn clear_keywords(ex: impl Exec<'_>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM negative_list_keywords WHERE list_id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Rows per multi-row insert (4 parameters a row, well under both backends' limits).
const CHUNK: usize = 200;

/// Adds `terms` to list `id` in this order (a list holds a text once per match type).
pub async fn insert_keywords(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    terms: &[ListKeyword],
) -> Result<(), sqlx::Error> {
    for (chunk_no, chunk) in terms.chunks(CHUNK).enumerate() {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| {
                format!(
                    "(${}, ${}, ${}, ${})",
                    4 * i + 1,
                    4 * i + 2,
                    4 * i + 3,
                    4 * i + 4
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO negative_list_keywords (list_id, position, text, match_type) VALUES {}",
            values.join(", ")
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (i, t) in chunk.iter().enumerate() {
            q = q
                .bind(id)
                .bind((chunk_no * CHUNK + i) as i64)
                .bind(&t.text)
                .bind(&t.match_type);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

fn keyword_row(r: &sqlx::any::AnyRow) -> Result<ListKeyword, sqlx::Error> {
    Ok(ListKeyword {
        text: r.try_get("text")?,
        match_type: r.try_get("match_type")?,
    })
}

fn place_row(r: &sqlx::any::AnyRow) -> Result<Place, sqlx::Error> {
    let group: i64 = r.try_get("ad_group_id")?;
    Ok(Place {
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        campaign_id: r.try_get("campaign_id")?,
        ad_group_id: (group != 0).then_some(group),
        campaign_name: r.try_get("campaign_name")?,
        ad_group_name: r.try_get("ad_group_name")?,
    })
}

/// The places of list `id`, in the order saved.
pub async fn places(ex: impl Exec<'_>, id: &str) -> Result<Vec<Place>, sqlx::Error> {
    sqlx::query(
        "SELECT account_id, org_id, campaign_id, ad_group_id, campaign_name, ad_group_name \
         FROM negative_list_places WHERE list_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(place_row)
    .collect()
}

/// Removes every place of list `id` (before [`insert_places`] writes the new ones).
pub async fn clear_places(ex: impl Exec<'_>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM negative_list_places WHERE list_id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Adds `places` to list `id` in this order (a place once a list).
pub async fn insert_places(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    places: &[Place],
) -> Result<(), sqlx::Error> {
    for (position, p) in places.iter().enumerate() {
        sqlx::query(
            "INSERT INTO negative_list_places (list_id, account_id, org_id, campaign_id, \
             ad_group_id, campaign_name, ad_group_name, position) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(&p.account_id)
        .bind(p.org_id)
        .bind(p.campaign_id)
        .bind(p.ad_group_id.unwrap_or(0))
        .bind(&p.campaign_name)
        .bind(&p.ad_group_name)
        .bind(position as i64)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Every term some list of `workspace_id` applies at `place` (each once): what Apple's
/// negatives there must include.
pub async fn terms_at(
    ex: impl Exec<'_>,
    workspace_id: &str,
    place: &Place,
) -> Result<Vec<ListKeyword>, sqlx::Error> {
    sqlx::query(
        "SELECT DISTINCT k.text, k.match_type FROM negative_list_keywords k \
         JOIN negative_list_places p ON p.list_id = k.list_id \
         JOIN negative_lists l ON l.id = k.list_id \
         WHERE l.workspace_id = $1 AND p.account_id = $2 AND p.org_id = $3 \
           AND p.campaign_id = $4 AND p.ad_group_id = $5 \
         ORDER BY k.match_type, k.text",
    )
    .bind(workspace_id)
    .bind(&place.account_id)
    .bind(place.org_id)
    .bind(place.campaign_id)
    .bind(place.ad_group_id.unwrap_or(0))
    .fetch_all(ex)
    .await?
    .iter()
    .map(keyword_row)
    .collect()
}

/// The key a negative is compared by, as Apple compares it: text trimmed and lower-cased,
/// match type upper-case.
pub fn negative_key(text: &str, match_type: &str) -> ListKeyword {
    ListKeyword {
        text: text.trim().to_lowercase(),
        match_type: match_type.trim().to_ascii_uppercase(),
    }
}

/// Records that a list makes negatives `terms` at `place` (before the create is sent; a
/// term recorded already stays once).
pub async fn claim(
    conn: &mut sqlx::AnyConnection,
    place: &Place,
    terms: &[ListKeyword],
) -> Result<(), sqlx::Error> {
    for t in terms {
        let k = negative_key(&t.text, &t.match_type);
        sqlx::query(
            "INSERT INTO negative_list_made (account_id, org_id, campaign_id, ad_group_id, text, \
             match_type) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (account_id, org_id, campaign_id, ad_group_id, match_type, text) DO NOTHING",
        )
        .bind(&place.account_id)
        .bind(place.org_id)
        .bind(place.campaign_id)
        .bind(place.ad_group_id.unwrap_or(0))
        .bind(&k.text)
        .bind(&k.match_type)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The negatives (keys) a list made at `place`.
pub async fn made_at(ex: impl Exec<'_>, place: &Place) -> Result<Vec<ListKeyword>, sqlx::Error> {
    sqlx::query(
        "SELECT text, match_type FROM negative_list_made WHERE account_id = $1 AND org_id = $2 \
         AND campaign_id = $3 AND ad_group_id = $4 ORDER BY match_type, text",
    )
    .bind(&place.account_id)
    .bind(place.org_id)
    .bind(place.campaign_id)
    .bind(place.ad_group_id.unwrap_or(0))
    .fetch_all(ex)
    .await?
    .iter()
    .map(keyword_row)
    .collect()
}

/// Forgets that a list made negatives `terms` at `place` (deleted, or never made).
pub async fn release(
    conn: &mut sqlx::AnyConnection,
    place: &Place,
    terms: &[ListKeyword],
) -> Result<(), sqlx::Error> {
    for t in terms {
        let k = negative_key(&t.text, &t.match_type);
        sqlx::query(
            "DELETE FROM negative_list_made WHERE account_id = $1 AND org_id = $2 \
             AND campaign_id = $3 AND ad_group_id = $4 AND text = $5 AND match_type = $6",
        )
        .bind(&place.account_id)
        .bind(place.org_id)
        .bind(place.campaign_id)
        .bind(place.ad_group_id.unwrap_or(0))
        .bind(&k.text)
        .bind(&k.match_type)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A live keyword a place bids on (synced), for the conflict check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BidKeyword {
    pub id: i64,
    pub ad_group_id: i64,
    pub text: String,
    pub match_type: String,
}

/// The live keywords of campaign `campaign_id` (of ad group `ad_group_id` only, when given)
/// in synced campaign group `org_key`, by id.
pub async fn bid_keywords(
    ex: impl Exec<'_>,
    org_key: i64,
    campaign_id: i64,
    ad_group_id: Option<i64>,
) -> Result<Vec<BidKeyword>, sqlx::Error> {
    sqlx::query(
        "SELECT id, ad_group_id, text, match_type FROM asa_keywords \
         WHERE org_key = $1 AND campaign_id = $2 AND ($3 = 0 OR ad_group_id = $3) AND deleted = 0 \
         ORDER BY id",
    )
    .bind(org_key)
    .bind(campaign_id)
    .bind(ad_group_id.unwrap_or(0))
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(BidKeyword {
            id: r.try_get("id")?,
            ad_group_id: r.try_get("ad_group_id")?,
            text: r.try_get("text")?,
            match_type: r.try_get("match_type")?,
        })
    })
    .collect()
}
