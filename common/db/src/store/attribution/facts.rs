//! The attributed events summed as the reports read them: per level (the report facts'
//! level codes), entity, install day (the cohort), event name, days from install to event
//! (0–30, [`LATER`] beyond), claim type, placement and currency. The ingest adds each new
//! event once to the facts of every level it names ([`add`]); a report sums a range of
//! install days for its rows ([`sums`]).

use sqlx::Row;

use crate::store::{
    Exec, placeholders,
    report_entities::{EntityKind, EntityScope},
};

/// The age bucket of events more than 30 days after their install.
pub const LATER: i64 = 31;

/// Most entity ids one [`sums`] call takes (the report's page, or every row of a level).
pub const SUMS_MAX: usize = 10_000;

/// One cell of the facts: the key and what to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact<'a> {
    /// `FactLevel::code()`.
    pub level: i64,
    pub entity_id: i64,
    pub install_day: &'a str,
    pub provider: &'a str,
    /// 0 when the provider did not name the app.
    pub adam_id: i64,
    pub event_name: &'a str,
    pub age_days: i64,
    /// '' when the provider did not say.
    pub claim_type: &'a str,
    pub placement: &'a str,
    /// '' without revenue.
    pub currency: &'a str,
    pub events: i64,
    pub revenue_micros: i64,
}

/// Adds each of `facts` (distinct keys: one event's levels) to the workspace's facts in one
/// statement.
pub async fn add_all(
    ex: impl Exec<'_>,
    workspace_id: &str,
    facts: &[Fact<'_>],
) -> Result<(), sqlx::Error> {
    if facts.is_empty() {
        return Ok(());
    }
    let values: Vec<String> = (0..facts.len())
        .map(|i| {
            let b = 1 + i * 12;
            let params: Vec<String> = (b + 1..=b + 12).map(|n| format!("${n}")).collect();
            format!("($1, {})", params.join(", "))
        })
        .collect();
    let sql = format!(
        "INSERT INTO attribution_facts (workspace_id, level, entity_id, install_day, provider, \
           adam_id, event_name, age_days, claim_type, placement, currency, events, revenue_micros) \
         VALUES {} \
         ON CONFLICT (workspace_id, level, entity_id, install_day, provider, adam_id, event_name, \
           age_days, claim_type, placement, currency) \
         DO UPDATE SET events = attribution_facts.events + excluded.events, \
           revenue_micros = attribution_facts.revenue_micros + excluded.revenue_micros",
        values.join(", ")
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
    for f in facts {
        q = q
            .bind(f.level)
            .bind(f.entity_id)
            .bind(f.install_day)
            .bind(f.provider)
            .bind(f.adam_id)
            .bind(f.event_name)
            .bind(f.age_days)
            .bind(f.claim_type)
            .bind(f.placement)
            .bind(f.currency)
            .bind(f.events)
            .bind(f.revenue_micros);
    }
    q.execute(ex).await?;
    Ok(())
}

/// The sums of one entity's facts over a range of install days, per provider, app, event
/// name, claim type, placement and currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    pub entity_id: i64,
    pub provider: String,
    pub adam_id: i64,
    pub event_name: String,
    pub claim_type: String,
    pub placement: String,
    pub currency: String,
    pub events: i64,
    pub revenue_micros: i64,
    /// Per asked cohort (in the order asked): the events and revenue of install days on or
    /// before its last day, at most its age after the install.
    pub cohorts: Vec<(i64, i64)>,
}

/// A cohort column's cut: events at most `age_days` after their install, of installs on or
/// before `through` (YYYY-MM-DD; the last install day old enough to count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cohort {
    pub age_days: i64,
    pub through: String,
}

/// The facts of `level` for `entity_ids` (at most [`SUMS_MAX`]; None: every entity of the
/// level) on install days `from..=to` (YYYY-MM-DD), summed per entity and key, with the sums
/// of each of `cohorts`.
pub async fn sums(
    ex: impl Exec<'_>,
    workspace_id: &str,
    level: i64,
    entity_ids: Option<&[i64]>,
    range: (&str, &str),
    cohorts: &[Cohort],
) -> Result<Vec<Sum>, sqlx::Error> {
    sums_by(
        ex,
        workspace_id,
        level,
        Of::Entities(entity_ids),
        range,
        cohorts,
    )
    .await
}

/// The entities of one campaign group's table in a report's scope (a campaign, an ad
/// group, or all of them).
#[derive(Debug, Clone, Copy)]
pub struct InGroup {
    pub kind: EntityKind,
    pub org_key: i64,
    pub scope: EntityScope,
}

/// The facts of `level` of every entity of `group` on install days `from..=to`, summed per
/// key alone (each [`Sum`]'s `entity_id` 0): a report's totals over all its rows, in one
/// pass that answers a few rows however many entities the group has.
pub async fn group_sums(
    ex: impl Exec<'_>,
    workspace_id: &str,
    level: i64,
    group: InGroup,
    range: (&str, &str),
    cohorts: &[Cohort],
) -> Result<Vec<Sum>, sqlx::Error> {
    sums_by(ex, workspace_id, level, Of::Group(group), range, cohorts).await
}

/// Whose facts [`sums_by`] sums: entities by id (None: every entity of the level), each
/// apart; or a campaign group's, together.
enum Of<'a> {
    Entities(Option<&'a [i64]>),
    Group(InGroup),
}

async fn sums_by(
    ex: impl Exec<'_>,
    workspace_id: &str,
    level: i64,
    of: Of<'_>,
    (from, to): (&str, &str),
    cohorts: &[Cohort],
) -> Result<Vec<Sum>, sqlx::Error> {
    let entity_ids = match &of {
        Of::Entities(ids) => *ids,
        Of::Group(_) => None,
    };
    let ids = entity_ids.unwrap_or_default();
    assert!(ids.len() <= SUMS_MAX, "sums takes at most {SUMS_MAX} ids");
    if entity_ids.is_some_and(<[i64]>::is_empty) {
        return Ok(Vec::new());
    }
    let mut columns = String::new();
    for (i, _) in cohorts.iter().enumerate() {
        let (age, through) = (5 + 2 * i, 6 + 2 * i);
        for (what, name) in [("events", "e"), ("revenue_micros", "r")] {
            columns.push_str(&format!(
                ", CAST(SUM(CASE WHEN age_days <= ${age} AND install_day <= ${through} \
                 THEN {what} ELSE 0 END) AS BIGINT) AS c{i}{name}"
            ));
        }
    }
    let next = 5 + 2 * cohorts.len();
    let filter = match (&of, entity_ids) {
        (Of::Group(g), _) => {
            let mut f = format!(
                " AND entity_id IN (SELECT id FROM {} WHERE org_key = ${next}",
                g.kind.table()
            );
            let mut n = next + 1;
            for (column, given) in [
                (g.kind.campaign_col(), g.scope.campaign_id.is_some()),
                (g.kind.ad_group_col(), g.scope.ad_group_id.is_some()),
            ] {
                if given {
                    f.push_str(&format!(" AND {column} = ${n}"));
                    n += 1;
                }
            }
            f.push(')');
            f
        }
        (_, Some(ids)) => format!(" AND entity_id IN ({})", placeholders(next, ids.len())),
        (_, None) => String::new(),
    };
    let (entity, group) = match of {
        Of::Group(_) => ("CAST(0 AS BIGINT) AS entity_id", ""),
        Of::Entities(_) => ("entity_id", "entity_id, "),
    };
    let sql = format!(
        "SELECT {entity}, provider, adam_id, event_name, claim_type, placement, currency, \
           CAST(SUM(events) AS BIGINT) AS events, \
           CAST(SUM(revenue_micros) AS BIGINT) AS revenue{columns} \
         FROM attribution_facts \
         WHERE workspace_id = $1 AND level = $2 AND install_day >= $3 AND install_day <= $4{filter} \
         GROUP BY {group}provider, adam_id, event_name, claim_type, placement, currency"
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(level)
        .bind(from)
        .bind(to);
    for c in cohorts {
        q = q.bind(c.age_days).bind(&c.through);
    }
    for id in ids {
        q = q.bind(*id);
    }
    if let Of::Group(g) = &of {
        q = q.bind(g.org_key);
        for id in [g.scope.campaign_id, g.scope.ad_group_id]
            .into_iter()
            .flatten()
        {
            q = q.bind(id);
        }
    }
    q.fetch_all(ex)
        .await?
        .iter()
        .map(|r| {
            Ok(Sum {
                entity_id: r.try_get("entity_id")?,
                provider: r.try_get("provider")?,
                adam_id: r.try_get("adam_id")?,
                event_name: r.try_get("event_name")?,
                claim_type: r.try_get("claim_type")?,
                placement: r.try_get("placement")?,
                currency: r.try_get("currency")?,
                events: r.try_get("events")?,
                revenue_micros: r.try_get("revenue")?,
                cohorts: (0..cohorts.len())
                    .map(|i| {
                        Ok((
                            r.try_get(format!("c{i}e").as_str())?,
                            r.try_get(format!("c{i}r").as_str())?,
                        ))
                    })
                    .collect::<Result<_, sqlx::Error>>()?,
            })
        })
        .collect()
}

/// The installs `provider` attributed on install days `from..=to` (YYYY-MM-DD): in all, and
/// those that named a keyword — what the integration's install check compares with Apple's.
pub async fn tracked_installs(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    (from, to): (&str, &str),
) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query(
        "SELECT \
           CAST(COALESCE(SUM(CASE WHEN level = 1 THEN events ELSE 0 END), 0) AS BIGINT) AS installs, \
           CAST(COALESCE(SUM(CASE WHEN level = 3 THEN events ELSE 0 END), 0) AS BIGINT) AS with_keyword \
         FROM attribution_facts \
         WHERE workspace_id = $1 AND provider = $2 AND event_name = 'install' AND level IN (1, 3) \
           AND install_day >= $3 AND install_day <= $4",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(from)
    .bind(to)
    .fetch_one(ex)
    .await?;
    Ok((row.try_get("installs")?, row.try_get("with_keyword")?))
}

/// Apple's installs of the workspace's synced campaign groups on days `from..=to`
/// (YYYY-MM-DD, each group's own days): in all, and those its keywords won (the rest came
/// through Search Match).
pub async fn apple_installs(
    ex: impl Exec<'_>,
    workspace_id: &str,
    (from, to): (&str, &str),
) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query(
        "SELECT \
           CAST(COALESCE(SUM(CASE WHEN m.level = 1 THEN m.tap_installs + m.view_installs ELSE 0 END), 0) AS BIGINT) AS installs, \
           CAST(COALESCE(SUM(CASE WHEN m.level = 3 THEN m.tap_installs + m.view_installs ELSE 0 END), 0) AS BIGINT) AS keyword_installs \
         FROM asa_day_metrics m \
         JOIN sync_orgs o ON o.org_key = m.org_key \
         JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 AND m.level IN (1, 3) \
           AND CAST(m.day AS TEXT) >= $2 AND CAST(m.day AS TEXT) <= $3",
    )
    .bind(workspace_id)
    .bind(from)
    .bind(to)
    .fetch_one(ex)
    .await?;
    Ok((row.try_get("installs")?, row.try_get("keyword_installs")?))
}
