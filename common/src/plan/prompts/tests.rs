//! Every banner and modal window of docs/product.md#4-banners and
//! docs/product.md#9-banner-and-modal-windows with a fixed clock.

use rust_decimal::Decimal;

use super::*;
use crate::plan::derive::{
    BILLING_GRACE_MS, GROWTH_TRIAL_MS, PRO_TRIAL_MS, Purchase, TrialKind, derive,
};

const END: i64 = 1_800_000_000_000;
const H: i64 = HOUR_MS;

fn trial(kind: TrialKind, length: i64) -> Purchase {
    let growth = kind == TrialKind::Growth;
    Purchase {
        id: "t".into(),
        name: if growth { "growth" } else { "pro" }.into(),
        free: false,
        trial: true,
        full: growth,
        organization: growth,
        trial_kind: Some(kind),
        suggester: true,
        payment_failed: false,
        started_at: END - length,
        off_account_time: Some(END),
    }
}

fn paid(failed: bool) -> Purchase {
    Purchase {
        id: "p".into(),
        name: "pro".into(),
        full: true,
        trial: false,
        trial_kind: None,
        payment_failed: failed,
        started_at: END - 30 * DAY_MS,
        ..trial(TrialKind::Pro, 0)
    }
}

/// (banner, modal) kinds at `now` for `purchases` and `spend`, as an owner (or not).
fn at(
    purchases: &[Purchase],
    spend: i64,
    now: i64,
    owner: bool,
) -> (Option<Banner>, Option<Modal>) {
    let standing = derive(purchases, Decimal::from(spend), now);
    let s = Situation {
        standing: &standing,
        can_manage: owner,
        data_issues: false,
        credit_line_missing: false,
        integrations: false,
        now,
    };
    (banner(&s), modal(&s))
}

fn kinds(purchases: &[Purchase], now: i64) -> (Option<BannerKind>, Option<ModalKind>) {
    let (b, m) = at(purchases, 0, now, true);
    (b.map(|b| b.kind), m.map(|m| m.kind))
}

#[test]
fn pro_trial_windows_72_48_24_hours() {
    let p = [trial(TrialKind::Pro, PRO_TRIAL_MS)];
    use BannerKind as B;
    use ModalKind as M;
    for (now, want) in [
        (END - PRO_TRIAL_MS, (None, None)),
        (END - 72 * H - 1, (None, None)),
        (
            END - 72 * H,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding3days)),
        ),
        (
            END - 48 * H - 1,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding3days)),
        ),
        (
            END - 48 * H,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding2day)),
        ),
        (
            END - 24 * H - 1,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding2day)),
        ),
        (
            END - 24 * H,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding1day)),
        ),
        (
            END - 1,
            (Some(B::ProTrialEnding), Some(M::ProTrialEnding1day)),
        ),
        (END, (Some(B::ProTrialEnd), Some(M::ProTrialEnd))),
        (
            END + TRIAL_END_MODAL_MS - 1,
            (Some(B::ProTrialEnd), Some(M::ProTrialEnd)),
        ),
        (
            END + TRIAL_END_MODAL_MS,
            (Some(B::ProTrialEnd), Some(M::ProFree)),
        ),
    ] {
        assert_eq!(kinds(&p, now), want, "{} h before the end", (END - now) / H);
    }
    let (_, m) = at(&p, 0, END - 50 * H, true);
    assert_eq!(m.unwrap().days_left, Some(3));
    let (_, m) = at(&p, 0, END - 1, true);
    assert_eq!(m.unwrap().days_left, Some(1));
}

#[test]
fn pre_trial_banner_7_days_and_modal_72_hours() {
    let p = [trial(TrialKind::Pre, PRO_TRIAL_MS)];
    use BannerKind as B;
    use ModalKind as M;
    for (now, want) in [
        (END - 7 * DAY_MS - 1, (None, None)),
        (END - 7 * DAY_MS, (Some(B::ProFreeEnding), None)),
        (END - 72 * H - 1, (Some(B::ProFreeEnding), None)),
        (
            END - 72 * H,
            (Some(B::ProFreeEnding), Some(M::ProTrialEnding)),
        ),
        (END - 1, (Some(B::ProFreeEnding), Some(M::ProTrialEnding))),
        (END, (Some(B::ProFreeEnd), Some(M::ProTrialEnd))),
    ] {
        assert_eq!(kinds(&p, now), want, "{} h before the end", (END - now) / H);
    }
}

#[test]
fn growth_trial_modal_30_to_3_days_and_72_hours() {
    let p = [trial(TrialKind::Growth, GROWTH_TRIAL_MS)];
    use BannerKind as B;
    use ModalKind as M;
    for (now, want) in [
        (END - 30 * DAY_MS, (None, Some(M::GrowthTrial))),
        (END - 72 * H - 1, (None, Some(M::GrowthTrial))),
        (
            END - 72 * H,
            (Some(B::GrowthTrailEnding), Some(M::GrowthTrialEnding)),
        ),
        (
            END - 1,
            (Some(B::GrowthTrailEnding), Some(M::GrowthTrialEnding)),
        ),
        (END, (Some(B::GrowthTrailEnd), Some(M::GrowthTrialEnd))),
    ] {
        assert_eq!(kinds(&p, now), want, "{} h before the end", (END - now) / H);
    }
    // Growth banners show their button to every role.
    let (b, _) = at(&p, 0, END - H, false);
    let b = b.unwrap();
    assert_eq!(
        (b.button.as_deref(), b.contact_admin),
        (Some("Upgrade"), None)
    );
}

#[test]
fn billing_issue_for_168_hours_then_blocked() {
    let p = [paid(true)];
    use BannerKind as B;
    assert_eq!(kinds(&p, END - 1), (None, None));
    assert_eq!(kinds(&p, END), (Some(B::BillingIssue), None));
    assert_eq!(
        kinds(&p, END + BILLING_GRACE_MS - 1),
        (Some(B::BillingIssue), None)
    );
    let (b, m) = at(&p, 0, END + BILLING_GRACE_MS, false);
    let b = b.unwrap();
    assert_eq!(b.kind, B::BillingBlocked);
    assert_eq!(
        b.button.as_deref(),
        Some("Update billing"),
        "billing buttons for everyone"
    );
    assert_eq!(
        m.map(|m| m.kind),
        Some(ModalKind::ProTrial),
        "free again, never trialled"
    );
    // A paid plan that ended without a failed payment is no billing matter.
    assert_eq!(kinds(&[paid(false)], END).0, None);
}

#[test]
fn free_plans_offer_the_trial_or_the_upgrade() {
    use ModalKind as M;
    assert_eq!(kinds(&[], END), (None, Some(M::ProTrial)));
    let (_, m) = at(&[], 10_001, END, true);
    let m = m.unwrap();
    assert_eq!((m.kind, m.confirm.as_str()), (M::Upgrade, "Start trial"));
    // pro_limited after the trial was had (and its end modal's 30 days are over): 'Upgrade'.
    let had = [trial(TrialKind::Pro, PRO_TRIAL_MS)];
    let (_, m) = at(&had, 10_001, END + TRIAL_END_MODAL_MS, true);
    let m = m.unwrap();
    assert_eq!((m.kind, m.confirm.as_str()), (M::Upgrade, "Upgrade"));
    // Paid plans get no upsell.
    assert_eq!(kinds(&[paid(false)], END - DAY_MS), (None, None));
    // On the integrations page: the MMP variant, and blockedMmp when limited.
    let standing = derive(&[], Decimal::ZERO, END);
    let mut s = Situation {
        standing: &standing,
        can_manage: true,
        data_issues: false,
        credit_line_missing: false,
        integrations: true,
        now: END,
    };
    assert_eq!(modal(&s).unwrap().variant.as_deref(), Some("mmp"));
    let limited = derive(&[], Decimal::from(20_000), END);
    s.standing = &limited;
    assert_eq!(modal(&s).unwrap().kind, M::BlockedMmp);
}

#[test]
fn other_roles_are_told_to_contact_their_admin() {
    let (_, m) = at(&[], 0, END, false);
    let m = m.unwrap();
    assert_eq!(
        (m.confirm_enabled, m.info.as_deref()),
        (false, Some(CONTACT_TRIAL))
    );
    let (_, m) = at(&[], 20_000, END + 1, false);
    assert_eq!(
        m.unwrap().info.as_deref(),
        Some(CONTACT_TRIAL),
        "'Start trial' offer"
    );
    let p = [trial(TrialKind::Pro, PRO_TRIAL_MS)];
    let (b, m) = at(&p, 0, END - H, false);
    let (b, m) = (b.unwrap(), m.unwrap());
    assert_eq!(
        (b.button, b.contact_admin.as_deref()),
        (None, Some(CONTACT_UPGRADE))
    );
    assert_eq!(
        (m.confirm.as_str(), m.confirm_enabled, m.info.as_deref()),
        ("Got it", true, Some(CONTACT_UPGRADE))
    );
    let (b, m) = at(&p, 0, END - H, true);
    assert_eq!(b.unwrap().button.as_deref(), Some("Upgrade"));
    assert!(m.unwrap().confirm_enabled);
}

#[test]
fn data_and_credit_line_banners_come_first_and_cannot_be_closed() {
    let standing = derive(
        &[trial(TrialKind::Pro, PRO_TRIAL_MS)],
        Decimal::ZERO,
        END - H,
    );
    let mut s = Situation {
        standing: &standing,
        can_manage: true,
        data_issues: true,
        credit_line_missing: true,
        integrations: false,
        now: END - H,
    };
    let b = banner(&s).unwrap();
    assert_eq!(
        (b.kind, b.closable, b.message.as_str()),
        (BannerKind::AppleDataIssues, false, DATA_ISSUES)
    );
    s.data_issues = false;
    let b = banner(&s).unwrap();
    assert_eq!((b.kind, b.closable), (BannerKind::AddCreditLine, false));
    s.credit_line_missing = false;
    assert!(banner(&s).unwrap().closable);
}

#[test]
fn days_left_round_up() {
    assert_eq!(days_left(0), 0);
    assert_eq!(days_left(-5), 0);
    assert_eq!(days_left(1), 1);
    assert_eq!(days_left(DAY_MS), 1);
    assert_eq!(days_left(DAY_MS + 1), 2);
}

#[test]
fn data_issues_follow_the_connections_syncs() {
    let sync = |ok: Option<i64>, failed: Option<i64>| SyncState {
        last_synced_at: ok,
        sync_failed_at: failed,
        delivered_through: None,
    };
    let now = END;
    // No connection, a connection whose first sync runs, a fresh sync: no issue.
    assert!(!data_issues(&[], now));
    assert!(!data_issues(&[sync(None, None)], now));
    assert!(!data_issues(&[sync(Some(now - H), None)], now));
    // A failure newer than the last stored sync is one; an older one (a later sync stored
    // the data) is not; a first sync given up is one.
    assert!(data_issues(&[sync(Some(now - 2 * H), Some(now - H))], now));
    assert!(!data_issues(&[sync(Some(now - H), Some(now - 2 * H))], now));
    assert!(data_issues(&[sync(None, Some(now - H))], now));
    // Stale: the 24th hour is in, past it is out; one late connection of several is enough.
    assert!(!data_issues(&[sync(Some(now - STALE_SYNC_MS), None)], now));
    assert!(data_issues(
        &[sync(Some(now - STALE_SYNC_MS - 1), None)],
        now
    ));
    assert!(data_issues(
        &[sync(Some(now), None), sync(Some(now - 25 * H), None)],
        now
    ));
}

#[test]
fn data_issues_show_when_apple_has_not_delivered_yesterday() {
    // 2026-12-01T10:00:00Z; syncs succeed every 3 hours.
    let now = 1_796_119_200_000;
    let served = |day: &str, zone: Option<&str>| SyncState {
        last_synced_at: Some(now - H),
        sync_failed_at: None,
        delivered_through: Some((day.to_string(), zone.map(str::to_string))),
    };
    // Apple's today served, or yesterday's (the hours after midnight): no issue.
    assert!(!data_issues(&[served("2026-12-01", Some("UTC"))], now));
    assert!(!data_issues(&[served("2026-11-30", None)], now));
    // Apple's clock three days behind ours: its reporting lags.
    assert!(data_issues(&[served("2026-11-28", Some("UTC"))], now));
    assert!(data_issues(&[served("2026-11-29", Some("UTC"))], now));
    // The group's own today: 02:00 in Los Angeles is still 2026-11-30 there.
    assert!(!data_issues(
        &[served("2026-11-29", Some("America/Los_Angeles"))],
        now - 8 * H
    ));
}
