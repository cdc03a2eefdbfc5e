//! One event as an adapter reads it, before the rules every provider shares: the event time
//! is required, an install is its own cohort, and an event without the provider's id gets
//! one derived from what identifies it, so a replayed postback is stored once.

use searchdeck_model::attribution::{
    AttributionEvent, ClaimType, ConversionType, EventKind, INSTALL_EVENT, Provider, Revenue,
};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::fields::{Errors, is_apple_ads};

/// The fields an adapter read from one postback.
#[derive(Debug)]
pub(crate) struct Draft {
    pub provider: Provider,
    /// The provider's own id of the event, when it sends one.
    pub event_id: Option<String>,
    pub kind: EventKind,
    /// The provider's event name (ignored for installs, stored as [`INSTALL_EVENT`]).
    pub event_name: String,
    /// The media source or network the provider attributed the event to, when it says.
    pub source: Option<String>,
    pub adam_id: Option<i64>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub ad_group_id: Option<i64>,
    pub keyword_id: Option<i64>,
    pub ad_id: Option<i64>,
    pub claim_type: Option<ClaimType>,
    pub conversion_type: Option<ConversionType>,
    pub placement: Option<String>,
    pub country: Option<String>,
    pub revenue: Option<Revenue>,
    pub event_time: Option<OffsetDateTime>,
    pub install_time: Option<OffsetDateTime>,
    pub device_id: Option<String>,
}

/// What became of one draft.
pub(crate) enum Outcome {
    Keep(Box<AttributionEvent>),
    /// Another media source's, or not tied to any campaign: counted, not stored.
    Skip,
    /// Refused: its errors are in the [`Errors`].
    Refused,
}

impl Draft {
    pub(crate) fn new(provider: Provider, kind: EventKind, event_name: impl Into<String>) -> Draft {
        Draft {
            provider,
            event_id: None,
            kind,
            event_name: event_name.into(),
            source: None,
            adam_id: None,
            org_id: None,
            campaign_id: None,
            ad_group_id: None,
            keyword_id: None,
            ad_id: None,
            claim_type: None,
            conversion_type: None,
            placement: None,
            country: None,
            revenue: None,
            event_time: None,
            install_time: None,
            device_id: None,
        }
    }

    /// Whether the event is Apple Ads': the provider names Apple Ads as its source, or names
    /// no source and forwards an Apple Ads campaign id.
    pub(crate) fn is_apple_ads(&self) -> bool {
        match &self.source {
            Some(source) => is_apple_ads(source),
            None => self.campaign_id.is_some(),
        }
    }

    /// The event, once `errors` (this draft's and the reading's) are known; `time_field`
    /// names the provider's event-time field for the message when it is missing.
    pub(crate) fn finish(self, errors: &mut Errors, time_field: &str) -> Outcome {
        // Another source's event is skipped whatever its values: its ids may not even be
        // numbers, and refusing it would only make the provider retry it.
        if self.source.as_deref().is_some_and(|s| !is_apple_ads(s)) {
            return Outcome::Skip;
        }
        if self.event_time.is_none() && errors.0.iter().all(|e| e.field != time_field) {
            errors.push(time_field, "is required");
        }
        if !errors.0.is_empty() {
            return Outcome::Refused;
        }
        if !self.is_apple_ads() {
            return Outcome::Skip;
        }
        let Some(event_time) = self.event_time else {
            return Outcome::Refused;
        };
        let event_name = match self.kind {
            EventKind::Install => INSTALL_EVENT.to_string(),
            EventKind::Event => self.event_name,
        };
        let install_time = match self.kind {
            EventKind::Install => Some(self.install_time.unwrap_or(event_time)),
            EventKind::Event => self.install_time,
        };
        let dedupe_id = self.event_id.unwrap_or_else(|| {
            derived_id(
                self.provider,
                self.device_id.as_deref(),
                &event_name,
                event_time,
                self.revenue.as_ref(),
            )
        });
        Outcome::Keep(Box::new(AttributionEvent {
            provider: self.provider,
            dedupe_id,
            kind: self.kind,
            event_name,
            adam_id: self.adam_id,
            org_id: self.org_id,
            campaign_id: self.campaign_id,
            ad_group_id: self.ad_group_id,
            keyword_id: self.keyword_id,
            ad_id: self.ad_id,
            claim_type: self.claim_type,
            conversion_type: self.conversion_type,
            placement: self.placement,
            country: self.country,
            revenue: self.revenue,
            event_time,
            install_time,
            device_id: self.device_id,
        }))
    }
}

/// SHA-256 (hex) over what identifies an event that came without the provider's id:
/// provider, device, event name, event time and revenue. A replay gives the same id.
pub(crate) fn derived_id(
    provider: Provider,
    device_id: Option<&str>,
    event_name: &str,
    event_time: OffsetDateTime,
    revenue: Option<&Revenue>,
) -> String {
    let mut hash = Sha256::new();
    for part in [
        provider.name().to_string(),
        device_id.unwrap_or_default().to_string(),
        event_name.to_string(),
        event_time.unix_timestamp_nanos().to_string(),
        revenue.map_or_else(String::new, |r| format!("{} {}", r.micros, r.currency)),
    ] {
        // Each part is length-prefixed so that no two field splits hash alike.
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_ids_follow_the_identifying_fields() {
        let t = OffsetDateTime::UNIX_EPOCH;
        let a = derived_id(Provider::Adjust, Some("d"), "install", t, None);
        assert_eq!(a.len(), 64);
        assert_eq!(
            a,
            derived_id(Provider::Adjust, Some("d"), "install", t, None)
        );
        assert_ne!(
            a,
            derived_id(Provider::Adjust, Some("e"), "install", t, None)
        );
        assert_ne!(
            a,
            derived_id(Provider::Kochava, Some("d"), "install", t, None)
        );
        let usd = Revenue {
            micros: 1,
            currency: "USD".into(),
        };
        assert_ne!(
            a,
            derived_id(Provider::Adjust, Some("d"), "install", t, Some(&usd))
        );
    }
}
