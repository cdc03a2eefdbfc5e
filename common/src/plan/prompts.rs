//! Which top banner and which upsell modal apply now (docs/product.md#4-banners, Upsell modals and
//! their windows, docs/product.md#9-banner-and-modal-windows; docs/api/plans.md): pure rules over
//! the workspace's [`Standing`], the caller's role and the clock, so `GET /api/plan/current`
//! answers them and every window is tested with a fixed `now`.
//!
//! "Within N h of the end" means `0 < end − now ≤ N h`: the N-th hour is in, the end itself
//! is out (at the end the trial has ended and the "…End" prompts apply). Only owners and
//! admins get upgrade or trial buttons, except on the Growth and billing banners which show
//! theirs to everyone; others are told to contact their admin.

use serde::Serialize;
use utoipa::ToSchema;

use super::{
    Plan,
    derive::{DAY_MS, FreeTrialStatus, HOUR_MS, PreviousStatus, Standing, TrialKind},
};
use crate::store::accounts::SyncState;

/// Spec §4's banner types (the spec's spelling, `Trail` included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum BannerKind {
    AppleDataIssues,
    AddCreditLine,
    ProFreeEnding,
    ProFreeEnd,
    ProTrialEnding,
    ProTrialEnd,
    GrowthTrailEnding,
    GrowthTrailEnd,
    BillingIssue,
    BillingBlocked,
}

/// Spec §4's upsell modal types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum ModalKind {
    ProFree,
    ProTrial,
    ProTrialEnding3days,
    ProTrialEnding2day,
    ProTrialEnding1day,
    ProTrialEnding,
    ProTrialEnd,
    GrowthTrial,
    GrowthTrialEnding,
    GrowthTrialEnd,
    BlockedMmp,
    Upgrade,
}

/// What the rules read besides the standing.
#[derive(Debug, Clone)]
pub struct Situation<'a> {
    pub standing: &'a Standing,
    /// Whether the caller may start a trial or upgrade (owner, admin).
    pub can_manage: bool,
    /// The provider has trouble delivering data for a connection.
    pub data_issues: bool,
    /// The account is active and a credit line exists, but the provider's is not filled.
    pub credit_line_missing: bool,
    /// Asked from the integrations page (the MMP variants).
    pub integrations: bool,
    /// The clock (ms).
    pub now: i64,
}

/// The top banner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Banner {
    #[serde(rename = "type")]
    pub kind: BannerKind,
    /// Whether it can be closed (closing is saved per type in the browser).
    pub closable: bool,
    pub message: String,
    /// The button's text; null when the caller gets none.
    pub button: Option<String>,
    /// Said instead of the button to roles that may not upgrade.
    pub contact_admin: Option<String>,
}

/// An upsell modal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Modal {
    #[serde(rename = "type")]
    pub kind: ModalKind,
    /// `mmp` for the integrations page's variant.
    pub variant: Option<String>,
    pub title: String,
    /// The info message (the contact-your-admin text for other roles).
    pub info: Option<String>,
    pub description: String,
    pub confirm: String,
    pub confirm_enabled: bool,
    pub cancel: Option<String>,
    pub footer: Option<String>,
    /// Whole days left to the plan's end, rounded up (trial-ending modals).
    pub days_left: Option<i64>,
}

/// Told to roles that may not start a trial (docs/product.md#4-upsell-modals).
pub const CONTACT_TRIAL: &str = "Please contact your admin to start the trial";
/// Told to roles that may not upgrade (docs/product.md#4-upsell-modals).
pub const CONTACT_UPGRADE: &str = "Please contact your admin to upgrade plan";
/// The provider's data banner (docs/product.md#8-banner-messages).
pub const DATA_ISSUES: &str = "We are currently experiencing issues receiving data from the provider. Our team is actively working to resolve the problem.";
/// After a trial ended, its "…End" modal is offered this long; `proFree` after.
pub const TRIAL_END_MODAL_MS: i64 = 30 * DAY_MS;

/// A connection whose last stored sync is older than this, while syncs run every 3 hours,
/// is not getting its data (8 syncs missed): the appleDataIssues banner shows.
pub const STALE_SYNC_MS: i64 = 24 * HOUR_MS;

/// Days Apple's newest served day may be behind our today (in the group's time zone) before
/// its delivery counts as lagging: the served day is Apple's today, so 0 normally and 1 for
/// the hours between midnight and the next sync; 2 means yesterday was never served.
pub const DELIVERY_LAG_DAYS: i64 = 2;

/// Whether the provider has trouble delivering the workspace's data (the appleDataIssues
/// banner), from its connections' syncs at `now` (ms): a connection's latest sync was given
/// up (its failure is newer than its last stored sync), its last stored sync is older than
/// [`STALE_SYNC_MS`], or syncs succeed but Apple's newest served day of one of its groups is
/// [`DELIVERY_LAG_DAYS`] or more behind that group's today (Apple's reporting lags: rules
/// skip the days it has not delivered). A connection not synced yet and not failed is not
/// late (its first sync is running).
pub fn data_issues(syncs: &[SyncState], now: i64) -> bool {
    syncs.iter().any(|s| {
        let failed = s
            .sync_failed_at
            .is_some_and(|f| s.last_synced_at.is_none_or(|ok| f > ok));
        let stale = s.last_synced_at.is_some_and(|ok| now - ok > STALE_SYNC_MS);
        let lagging = s.delivered_through.as_ref().is_some_and(|(day, zone)| {
            let today = crate::rules::window::today(now / 1000, zone.as_deref());
            time::Date::parse(
                day,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .is_ok_and(|served| (today - served).whole_days() >= DELIVERY_LAG_DAYS)
        });
        failed || stale || lagging
    })
}

/// Milliseconds left to the end of the purchase in force, if it has an end.
fn left(s: &Situation<'_>) -> Option<i64> {
    s.standing
        .current
        .as_ref()
        .and_then(|p| p.off_account_time)
        .map(|end| end - s.now)
}

fn within(left: Option<i64>, hours: i64) -> bool {
    left.is_some_and(|l| l > 0 && l <= hours * HOUR_MS)
}

/// Whole days left, rounded up.
pub fn days_left(left_ms: i64) -> i64 {
    if left_ms <= 0 {
        0
    } else {
        (left_ms + DAY_MS - 1) / DAY_MS
    }
}

/// The trial that ended when the workspace fell back to a free plan, and when.
fn ended_trial(standing: &Standing) -> Option<(TrialKind, i64)> {
    if standing.previous_status != Some(PreviousStatus::Trial) {
        return None;
    }
    let p = standing.ended.as_ref()?;
    Some((p.trial()?, p.off_account_time.unwrap_or(p.started_at)))
}

fn is_free(plan: Plan) -> bool {
    matches!(plan, Plan::ProFree | Plan::ProLimited)
}

/// The banner that applies now, if any.
pub fn banner(s: &Situation<'_>) -> Option<Banner> {
    let st = s.standing;
    let make = |kind, message: &str, button: &str, everyone: bool, closable| Banner {
        kind,
        closable,
        message: message.to_string(),
        button: (everyone || s.can_manage).then(|| button.to_string()),
        contact_admin: (!everyone && !s.can_manage).then(|| CONTACT_UPGRADE.to_string()),
    };
    let left = left(s);
    if s.data_issues {
        return Some(Banner {
            kind: BannerKind::AppleDataIssues,
            closable: false,
            message: DATA_ISSUES.into(),
            button: None,
            contact_admin: None,
        });
    }
    if s.credit_line_missing {
        return Some(make(
            BannerKind::AddCreditLine,
            "Your credit line information is missing. Add it so your campaigns keep running.",
            "Add credit line",
            false,
            false,
        ));
    }
    let failed_full = st.ended.as_ref().is_some_and(|p| p.payment_failed);
    if is_free(st.plan) && st.previous_status == Some(PreviousStatus::Full) && failed_full {
        return Some(make(
            BannerKind::BillingBlocked,
            "Your plan was downgraded because the payment failed.",
            "Update billing",
            true,
            true,
        ));
    }
    if let Some(p) = st.current.as_ref()
        && p.full
        && p.payment_failed
        && p.off_account_time.is_some_and(|end| s.now >= end)
    {
        return Some(make(
            BannerKind::BillingIssue,
            "We could not charge your card. Update your billing details within 168 hours of the plan's end to keep your plan.",
            "Update billing",
            true,
            true,
        ));
    }
    match st.plan {
        Plan::GrowthTrial if within(left, 72) => {
            return Some(make(
                BannerKind::GrowthTrailEnding,
                "Your Growth trial ends in less than 3 days.",
                "Upgrade",
                true,
                true,
            ));
        }
        Plan::ProTrial if within(left, 72) => {
            return Some(make(
                BannerKind::ProTrialEnding,
                "Your Pro trial ends in less than 3 days.",
                "Upgrade",
                false,
                true,
            ));
        }
        Plan::ProFreeTrial if within(left, 7 * 24) => {
            return Some(make(
                BannerKind::ProFreeEnding,
                "Your free Pro period ends within 7 days.",
                "Upgrade",
                false,
                true,
            ));
        }
        _ => {}
    }
    if is_free(st.plan)
        && let Some((kind, _)) = ended_trial(st)
    {
        let (kind, message, everyone) = match kind {
            TrialKind::Growth => (
                BannerKind::GrowthTrailEnd,
                "Your Growth trial has ended.",
                true,
            ),
            TrialKind::Pro => (BannerKind::ProTrialEnd, "Your Pro trial has ended.", false),
            TrialKind::Pre => (
                BannerKind::ProFreeEnd,
                "Your free Pro period has ended.",
                false,
            ),
        };
        return Some(make(kind, message, "Upgrade", everyone, true));
    }
    None
}

/// The upsell modal that applies now, if any.
pub fn modal(s: &Situation<'_>) -> Option<Modal> {
    let st = s.standing;
    let left = left(s);
    let days = left.map(days_left);
    let base = |kind, title: &str, description: &str, confirm: &str| Modal {
        kind,
        variant: None,
        title: title.to_string(),
        info: None,
        description: description.to_string(),
        confirm: confirm.to_string(),
        confirm_enabled: true,
        cancel: Some("Later".into()),
        footer: None,
        days_left: None,
    };
    let ending = |kind, title: &str| Modal {
        days_left: days,
        ..base(
            kind,
            title,
            "Upgrade to keep your Pro features when the trial ends.",
            "Upgrade",
        )
    };
    let modal = match st.plan {
        Plan::ProTrial if within(left, 24) => Some(ending(
            ModalKind::ProTrialEnding1day,
            "Your Pro trial ends today",
        )),
        Plan::ProTrial if within(left, 48) => Some(ending(
            ModalKind::ProTrialEnding2day,
            "Your Pro trial ends in 2 days",
        )),
        Plan::ProTrial if within(left, 72) => Some(ending(
            ModalKind::ProTrialEnding3days,
            "Your Pro trial ends in 3 days",
        )),
        Plan::ProFreeTrial if within(left, 72) => Some(ending(
            ModalKind::ProTrialEnding,
            "Your Pro trial is ending",
        )),
        Plan::GrowthTrial if within(left, 72) => Some(Modal {
            days_left: days,
            ..base(
                ModalKind::GrowthTrialEnding,
                "Your Growth trial is ending",
                "Upgrade to keep Growth metrics and limits.",
                "Upgrade",
            )
        }),
        Plan::GrowthTrial if within(left, 30 * 24) => Some(Modal {
            days_left: days,
            ..base(
                ModalKind::GrowthTrial,
                "Your 30-day Growth trial",
                "Growth unlocks auction insights, forecasts and higher limits for 30 days.",
                "Upgrade",
            )
        }),
        plan if is_free(plan) => free_modal(s, &base),
        _ => None,
    }?;
    Some(for_role(modal, s.can_manage))
}

/// The modal of a free or limited workspace.
fn free_modal(
    s: &Situation<'_>,
    base: &dyn Fn(ModalKind, &str, &str, &str) -> Modal,
) -> Option<Modal> {
    let st = s.standing;
    if let Some((kind, end)) = ended_trial(st)
        && s.now < end + TRIAL_END_MODAL_MS
    {
        return Some(match kind {
            TrialKind::Growth => base(
                ModalKind::GrowthTrialEnd,
                "Your Growth trial has ended",
                "Upgrade to Growth to get its metrics and limits back.",
                "Upgrade",
            ),
            TrialKind::Pro | TrialKind::Pre => base(
                ModalKind::ProTrialEnd,
                "Your Pro trial has ended",
                "Upgrade to Pro to keep its limits and your MMP events.",
                "Upgrade",
            ),
        });
    }
    let no_trial = st.free_trial == FreeTrialStatus::NoTrial;
    let mmp = s.integrations.then(|| "mmp".to_string());
    Some(match st.plan {
        Plan::ProLimited if s.integrations => base(
            ModalKind::BlockedMmp,
            "MMP integrations need Pro",
            "Upgrade to Pro to track events from your MMP.",
            if no_trial { "Start trial" } else { "Upgrade" },
        ),
        Plan::ProLimited => Modal {
            footer: Some("Pro is free while the monthly ad spend is at most $10,000.".into()),
            ..base(
                ModalKind::Upgrade,
                "Your ad spend passed $10,000 last month",
                "Upgrade to Pro to keep every feature.",
                if no_trial { "Start trial" } else { "Upgrade" },
            )
        },
        _ if no_trial => Modal {
            variant: mmp,
            info: Some("A 14-day free trial, no card required.".into()),
            ..base(
                ModalKind::ProTrial,
                "Try Pro for 14 days",
                "Start your 14-day Pro trial: higher limits and MMP events.",
                "Start trial",
            )
        },
        _ => Modal {
            cancel: None,
            ..base(
                ModalKind::ProFree,
                "Pro is free for you",
                "Pro is free while your monthly ad spend is at most $10,000.",
                "Got it",
            )
        },
    })
}

/// `modal` as a caller who may not start a trial or upgrade sees it: trial offers and
/// upgrades with the confirm disabled and the contact text; informational ones read 'Got it'.
fn for_role(mut modal: Modal, can_manage: bool) -> Modal {
    if can_manage || modal.kind == ModalKind::ProFree {
        return modal;
    }
    let trial = modal.confirm == "Start trial";
    modal.info = Some(
        if trial {
            CONTACT_TRIAL
        } else {
            CONTACT_UPGRADE
        }
        .into(),
    );
    match modal.kind {
        ModalKind::ProTrial | ModalKind::Upgrade | ModalKind::BlockedMmp => {
            modal.confirm_enabled = false;
        }
        _ => {
            modal.confirm = "Got it".into();
            modal.cancel = None;
        }
    }
    modal
}

#[cfg(test)]
mod tests;
