//! What a run on conversions checks before it acts (docs/api/rules.md "Conversions and
//! cohorts"): the workspace's plan grants the Conversions and Cohort metrics (pro_limited
//! locks them), and a provider is still delivering (an event or a pulled day within 48
//! hours) — a rule that lowers bids on a low ROAS must not read an SDK or a postback that
//! broke as users who stopped paying. A run that fails either check is `SKIPPED` with the
//! reason; the preview shows it before saving.

use time::OffsetDateTime;

use super::Subject;
use crate::{
    Db,
    report::catalog::{ColumnAccess, PRO_LOCK_MESSAGE},
    rules::named,
    store,
};

/// How long after the newest attributed event a rule on conversions still acts.
pub const CONVERSIONS_STALE_HOURS: i64 = 48;

/// Why `subject`'s rule, which names Conversions or Cohort metrics, cannot act at `now`
/// (Unix seconds) with the plan's `columns`; None when it can, or names none.
pub async fn conversions_reason(
    db: &Db,
    subject: &Subject,
    columns: ColumnAccess,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    if !named::reads_conversions(&subject.rule) {
        return Ok(None);
    }
    if !columns.conversions {
        return Ok(Some(PRO_LOCK_MESSAGE.to_string()));
    }
    let newest =
        store::attribution::events::newest_received(&db.pool, &subject.workspace_id).await?;
    Ok(stale_reason(newest, now))
}

/// The reason when the newest attributed event (received at `newest`, Unix ms) is older
/// than [`CONVERSIONS_STALE_HOURS`] at `now` (Unix seconds), or there is none.
pub fn stale_reason(newest: Option<i64>, now: i64) -> Option<String> {
    let Some(newest) = newest else {
        return Some(
            "No attributed conversions have arrived yet: connect an attribution provider in \
             Settings › Integrations"
                .to_string(),
        );
    };
    let at = newest / 1000;
    (now - at > CONVERSIONS_STALE_HOURS * 3600).then(|| {
        let when = OffsetDateTime::from_unix_timestamp(at)
            .map(|t| format!("{} {:02}:{:02} UTC", t.date(), t.hour(), t.minute()))
            .unwrap_or_default();
        format!(
            "No attributed conversions have arrived for {CONVERSIONS_STALE_HOURS} hours (the \
             newest on {when}): the rule does not act on conversions a provider may not have \
             delivered"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_silent_for_two_days_stops_the_rule() {
        let now = 1_765_000_000;
        assert!(
            stale_reason(None, now)
                .unwrap()
                .contains("connect an attribution provider")
        );
        assert_eq!(stale_reason(Some((now - 3600) * 1000), now), None);
        assert_eq!(stale_reason(Some((now - 48 * 3600) * 1000), now), None);
        let stale = stale_reason(Some((now - 48 * 3600 - 1) * 1000), now).unwrap();
        assert!(
            stale.starts_with("No attributed conversions have arrived for 48 hours"),
            "{stale}"
        );
        assert!(stale.contains("UTC"), "{stale}");
    }
}
