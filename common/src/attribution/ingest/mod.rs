//! The ingest of attributed events: each event the adapters read is tied to its install
//! (an in-app event without campaign ids or install time takes its install's, same provider
//! and device), dated in its campaign group's time zone, stored once per (provider, dedupe
//! id), and — only when newly stored — added to the facts of every level it names and to
//! the event names seen — unless the provider's reporting API already gave that install day
//! (`store::attribution::pulled`): a pulled day's facts are the pull's alone, so the event is
//! kept and listed but counted once, by the pull. All of one postback's events are written
//! in one transaction: a replay, or a postback retried after a timeout, changes nothing.

use searchdeck_model::attribution::{AttributionEvent, EventKind, INSTALL_EVENT};
use time::OffsetDateTime;

use crate::{
    Db,
    store::{
        attribution::{
            events::{self, StoredEvent},
            facts::{self, Fact, LATER},
            names::{self, Counts, EventName},
            pulled,
        },
        report_facts::FactLevel,
    },
};

/// What one ingest stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ingested {
    /// Events read from the postback.
    pub received: usize,
    /// Events stored (new).
    pub stored: usize,
    /// Events already stored (the same provider and dedupe id): replays.
    pub duplicates: usize,
}

/// Stores `events` of the workspace's integration `integration_id`, at `now_ms`; `test`
/// marks events sent from the integration screen, which are stored and listed but summed
/// into no report.
pub async fn ingest(
    db: &Db,
    workspace_id: &str,
    integration_id: &str,
    events: &[AttributionEvent],
    test: bool,
    now_ms: i64,
) -> Result<Ingested, sqlx::Error> {
    let mut out = Ingested {
        received: events.len(),
        ..Ingested::default()
    };
    let mut tx = db.begin_write().await?;
    for event in events {
        let stored = resolve(&mut tx, workspace_id, event, test, now_ms).await?;
        if !events::insert(&mut *tx, workspace_id, &stored).await? {
            out.duplicates += 1;
            continue;
        }
        out.stored += 1;
        if test {
            // A test event shows on the integration screen only: no report counts it.
            continue;
        }
        // A day the reporting API gave counts this event already, in the pull's numbers.
        if !pulled::is_pulled(
            &mut *tx,
            workspace_id,
            &stored.provider,
            &stored.install_day,
        )
        .await?
        {
            facts::add_all(&mut *tx, workspace_id, &facts_of(&stored)).await?;
        }
        names::seen(
            &mut *tx,
            workspace_id,
            &EventName {
                provider: stored.provider.clone(),
                adam_id: stored.adam_id.unwrap_or(0),
                event_name: stored.event_name.clone(),
                counts: default_counts(&stored),
                events: 1,
                first_seen_at: now_ms,
                last_seen_at: now_ms,
            },
        )
        .await?;
    }
    if !events.is_empty() {
        crate::store::attribution::integrations::touch(&mut *tx, integration_id, now_ms).await?;
    }
    tx.commit().await?;
    Ok(out)
}

/// `event` as stored: its install found, its campaign ids taken from the install when it
/// has none, its install day in its campaign group's zone.
async fn resolve(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    workspace_id: &str,
    event: &AttributionEvent,
    test: bool,
    now_ms: i64,
) -> Result<StoredEvent, sqlx::Error> {
    let provider = event.provider.name();
    let install = match (&event.device_id, event.kind) {
        (Some(device), EventKind::Event)
            if event.campaign_id.is_none() || event.install_time.is_none() =>
        {
            events::install_of(&mut **tx, workspace_id, provider, device).await?
        }
        _ => None,
    };
    let event_at = unix_ms(event.event_time);
    let install_at = match event.kind {
        EventKind::Install => event.install_time.map_or(event_at, unix_ms),
        EventKind::Event => event
            .install_time
            .map(unix_ms)
            .or(install.as_ref().map(|i| i.install_at))
            .unwrap_or(event_at),
    };
    let from_install = event.campaign_id.is_none() && install.is_some();
    let take = |own: Option<i64>, installs: fn(&StoredEvent) -> Option<i64>| {
        if from_install {
            install.as_ref().and_then(installs)
        } else {
            own
        }
    };
    let campaign_id = take(event.campaign_id, |i| i.campaign_id);
    let zone = match campaign_id {
        Some(id) => events::campaign_zone(&mut **tx, workspace_id, id)
            .await?
            .flatten(),
        None => None,
    };
    let install_day = day_in(install_at, zone.as_deref());
    let (claim_type, placement) = if from_install {
        let i = install.as_ref();
        (
            i.and_then(|i| i.claim_type.clone()),
            i.and_then(|i| i.placement.clone()),
        )
    } else {
        (
            event.claim_type.map(|c| c.name().to_string()),
            event.placement.clone(),
        )
    };
    Ok(StoredEvent {
        provider: provider.to_string(),
        dedupe_id: event.dedupe_id.clone(),
        kind: match event.kind {
            EventKind::Install => "install",
            EventKind::Event => "event",
        }
        .to_string(),
        event_name: event.event_name.clone(),
        adam_id: event.adam_id.or(install.as_ref().and_then(|i| i.adam_id)),
        org_id: take(event.org_id, |i| i.org_id),
        campaign_id,
        ad_group_id: take(event.ad_group_id, |i| i.ad_group_id),
        keyword_id: take(event.keyword_id, |i| i.keyword_id),
        ad_id: take(event.ad_id, |i| i.ad_id),
        claim_type,
        conversion_type: event.conversion_type.map(|c| c.name().to_string()),
        placement,
        country: event.country.clone(),
        revenue_micros: event.revenue.as_ref().map(|r| r.micros),
        currency: event.revenue.as_ref().map(|r| r.currency.clone()),
        event_at,
        install_at,
        install_day,
        device_id: event.device_id.clone(),
        test,
        received_at: now_ms,
    })
}

/// The facts a stored event adds to: one per level whose id it carries (the campaign, the
/// ad group, the keyword, the ad). An event of no campaign adds to none: it is kept, and
/// shown on the integration screen, but no report row is its.
pub fn facts_of(e: &StoredEvent) -> Vec<Fact<'_>> {
    if e.campaign_id.is_none() {
        return Vec::new();
    }
    let age_days = ((e.event_at - e.install_at).max(0) / 86_400_000).min(LATER);
    let levels = [
        (FactLevel::Campaign, e.campaign_id),
        (FactLevel::AdGroup, e.ad_group_id),
        (FactLevel::Keyword, e.keyword_id),
        (FactLevel::Ad, e.ad_id),
    ];
    levels
        .into_iter()
        .filter_map(|(level, id)| {
            Some(Fact {
                level: level.code(),
                entity_id: id?,
                install_day: &e.install_day,
                provider: &e.provider,
                adam_id: e.adam_id.unwrap_or(0),
                event_name: &e.event_name,
                age_days,
                claim_type: e.claim_type.as_deref().unwrap_or(""),
                placement: e.placement.as_deref().unwrap_or(""),
                currency: e.currency.as_deref().unwrap_or(""),
                events: 1,
                revenue_micros: e.revenue_micros.unwrap_or(0),
            })
        })
        .collect()
}

/// What a name counts as when first seen, read from the name and the event (the user
/// changes it in the event settings): a name saying trial counts as trials; one saying
/// purchase or subscribe (not a renewal, which is not a new paying user) as purchases; an
/// event with revenue as revenue. Installs count as none of them.
pub fn default_counts(e: &StoredEvent) -> Counts {
    counts_of_name(&e.event_name, e.revenue_micros.is_some_and(|m| m != 0))
}

/// [`default_counts`] of an event name, `revenue` saying whether its events carried revenue
/// (what a pull knows of a name: its totals, not one event).
pub fn counts_of_name(event_name: &str, revenue: bool) -> Counts {
    if event_name == INSTALL_EVENT {
        return Counts::default();
    }
    let name = event_name.to_ascii_lowercase();
    let trial = name.contains("trial");
    Counts {
        trial,
        purchase: !trial
            && !name.contains("renew")
            && (name.contains("purchase") || name.contains("subscri")),
        revenue,
    }
}

fn unix_ms(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// The day (YYYY-MM-DD) of `unix_ms` in the IANA zone `zone`, UTC when unknown.
fn day_in(unix_ms: i64, zone: Option<&str>) -> String {
    crate::zones::today(unix_ms.div_euclid(1000), zone).to_string()
}

#[cfg(test)]
mod tests;
