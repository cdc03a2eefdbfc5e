//! What a run checks before it acts: the share of entities a run may change and the
//! collapse guard over a level's spend, and whether the window's days are complete (the
//! newest day Apple has delivered whole for the campaign group).

use super::*;

/// The share (percent) of its entities a run may change on a window whose delivery collapsed
/// (`guardrails.maxChangeShare`'s default).
pub const DEFAULT_MAX_CHANGE_SHARE: u32 = 50;

/// Distinct entities `evaluated` would change (its `PLANNED` items).
pub fn changed_entities(evaluated: &Evaluated) -> usize {
    evaluated
        .items
        .iter()
        .filter(|i| i.result == store::rule_runs::ITEM_PLANNED)
        .map(|i| i.entity_id)
        .collect::<HashSet<_>>()
        .len()
}

/// Whether `evaluated` would change more than the rule's share of its entities (see
/// [`collapse_guard`]).
pub fn over_share(rule: &Rule, evaluated: &Evaluated) -> bool {
    let share = rule
        .guardrails
        .max_change_share
        .unwrap_or(DEFAULT_MAX_CHANGE_SHARE) as usize;
    evaluated.read > 0 && changed_entities(evaluated) * 100 > share * evaluated.read
}

/// The collapse guard (`guardrails.maxChangeShare`): a run that would change more than that
/// share of the rule's entities (default 50 %) while the window's impressions or spend fell
/// to less than half of the same days a week earlier stops instead of acting — the signature
/// of data that went missing (a delivery gap, a restatement) rather than of the campaigns.
/// The reason, in the user's words, when it stops; the week before is read only when the
/// share is exceeded.
pub async fn collapse_guard(
    db: &Db,
    caches: &crate::report::Caches,
    subject: &Subject,
    evaluated: &Evaluated,
    cancel: &Cancel,
) -> Result<Option<String>, ReportError> {
    if !over_share(&subject.rule, evaluated) {
        return Ok(None);
    }
    let (from, to) = evaluated.window;
    let week = Duration::days(7);
    let read = EntityRead {
        level: report_level(subject.rule.level),
        campaigns: subject.campaigns.clone(),
        range: DateRange {
            from: from - week,
            to: to - week,
        },
        tags: false,
        popularity: false,
        conversions: None,
    };
    let rows = crate::report::entity_rows(
        db,
        caches,
        &subject.workspace_id,
        &subject.org,
        &read,
        cancel,
    )
    .await?;
    let before = Delivery::of(&rows);
    Ok(evaluated.delivery.collapsed_from(&before).then(|| {
        let share = subject
            .rule
            .guardrails
            .max_change_share
            .unwrap_or(DEFAULT_MAX_CHANGE_SHARE);
        format!(
            "Stopped by the rule's guard: it would change {} of its {} entities (over {share} %) \
             while their impressions over {from}..{to} fell to {} from {} the week before. \
             Check the data, then run the rule again or raise the guard's share",
            changed_entities(evaluated),
            evaluated.read,
            evaluated.delivery.impressions,
            before.impressions,
        )
    }))
}

/// The report level of a rule level.
pub fn report_level(level: RuleLevel) -> Level {
    match level {
        RuleLevel::Campaigns => Level::Campaigns,
        RuleLevel::Adgroups => Level::Groups,
        RuleLevel::Keywords => Level::Keywords,
        RuleLevel::Searchterms => Level::Searchterms,
    }
}

/// The item level of a rule level (as change records name levels; search terms apart).
pub fn item_level(level: RuleLevel) -> &'static str {
    match level {
        RuleLevel::Campaigns => "CAMPAIGN",
        RuleLevel::Adgroups => "AD_GROUP",
        RuleLevel::Keywords => "KEYWORD",
        RuleLevel::Searchterms => "SEARCH_TERM",
    }
}

/// The newest complete day of `org`; None before its first metrics sync.
///
/// Two bounds, the earlier wins: the day before the newest day the provider served
/// (`metrics_through` is the ad account's today by Apple's clock when the sync read it, a day
/// still in progress), and the day before the one (its time zone, our clock) on which the
/// last metrics sync finished. When Apple's reporting lags — its clock days behind ours — the
/// first bound holds the rule to the days Apple actually delivered.
pub fn newest_complete_day(org: &SyncOrg) -> Option<Date> {
    let at = org.metrics_synced_at?;
    let synced = window::today(at, org.time_zone.as_deref()) - Duration::days(1);
    let through = org.metrics_through.as_deref().and_then(|d| {
        Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
    })?;
    Some(synced.min(through - Duration::days(1)))
}

/// Why a window ending on `end` cannot be acted on yet, in the user's words; None when every
/// day of it is complete (see [`newest_complete_day`]). A run with a reason is `SKIPPED`
/// with it, the preview shows it before the rule is saved, the backtest leaves the day out.
pub fn incomplete_reason(org: &SyncOrg, end: Date) -> Option<String> {
    match newest_complete_day(org) {
        None => Some(format!(
            "Metrics for {end} are not synced yet: this campaign group's metrics have not been synced"
        )),
        Some(newest) if end > newest => Some(format!(
            "Metrics for {end} are not synced yet: Apple Ads has delivered this campaign group's \
             metrics through {newest}, and days it has not delivered are never read as zeros"
        )),
        Some(_) => None,
    }
}
