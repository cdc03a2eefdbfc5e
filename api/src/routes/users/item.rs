//! The User item (docs/product.md#3-user) that the auth routes (`auth/me`, login, register) and
//! `users/changeValue` answer. Its plan fields (`lastMonthSpend`, `nextPurchaseId`,
//! `previousStatus`, `paymentFailed`, `purchase`) come from the workspace's purchases and
//! last month's spend through the same derivation as `plan/current` (docs/api/plans.md
//! "The User item").

use rust_decimal::Decimal;
use searchdeck_common::{
    ids::now_ms,
    plan::derive::{self, PreviousStatus, Purchase, Standing},
    store,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    error::ApiError,
    routes::plans::{self, PurchaseItem},
    session::CurrentUser,
    state::AppState,
};

/// The connections of a user (spec §3: appStore list, mmpEvent map by provider). `appStore`
/// lists the workspace's App Store Connect connections: `id`, `name` (the key id), and
/// `history` (whether daily sales have been read, so the integration shows 'Active'
/// rather than 'Loading data').
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connects {
    pub app_store: Vec<serde_json::Value>,
    pub mmp_event: serde_json::Map<String, serde_json::Value>,
}

/// The signed-in user as the web app sees it (spec §3 User; docs/api/plans.md "The User
/// item").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserItem {
    pub id: String,
    pub email: String,
    pub full_name: String,
    /// The role in the current workspace: owner, admin, writer or reader.
    #[schema(pattern = "^(owner|admin|writer|reader)$")]
    pub permission: String,
    pub workspace_id: String,
    pub alternative_invoice_email: Option<String>,
    /// Last month's ad spend of the workspace over all its connections in US dollars, the
    /// amount the free plans are decided by (docs/api/plans.md "Last month's spend"; the
    /// same as `plan/current`'s `lastMonthSpend`), floored to cents; 0 until accounts sync.
    /// Sent as the JSON number the web app reads; amounts of up to 15 significant digits
    /// print with exactly their digits.
    #[serde(with = "rust_decimal::serde::float")]
    #[schema(value_type = f64)]
    pub last_month_spend: Decimal,
    /// The purchase that starts next (bought to follow the one in force: `startedAt` after
    /// now), null when none.
    pub next_purchase_id: Option<String>,
    /// The status of the purchase that ended when the workspace fell back to a free plan
    /// (`full`: a paid plan, with `paymentFailed` the billing-blocked state; `trial`), null
    /// otherwise.
    pub previous_status: Option<PreviousStatus>,
    /// Whether billing found the last payment failed: of the paid plan in force (its grace,
    /// the billing-issue banner) or of the paid plan that ended (billing blocked).
    pub payment_failed: bool,
    /// The purchase in force (as `purchase/all` answers it), null on a free plan without
    /// one.
    pub purchase: Option<PurchaseItem>,
    pub connects: Connects,
}

/// Loads the user item of `user_id` in `workspace_id`.
pub async fn load(
    state: &AppState,
    user_id: &str,
    workspace_id: &str,
) -> Result<UserItem, ApiError> {
    let row = store::users::member(&state.db.pool, user_id, workspace_id)
        .await?
        .ok_or_else(|| ApiError::not_found("User"))?;
    let now = now_ms();
    let purchases = store::purchases::all(&state.db.pool, workspace_id).await?;
    let spend = state
        .engines
        .last_month_usd(&state.db, workspace_id, now)
        .await?;
    let standing = derive::derive(&purchases, spend, now);
    let billing = Billing::of(&purchases, &standing, now);
    Ok(UserItem {
        id: row.id,
        email: row.email,
        full_name: row.full_name,
        permission: row.role,
        workspace_id: workspace_id.to_string(),
        alternative_invoice_email: row.alternative_invoice_email,
        last_month_spend: spend,
        next_purchase_id: billing.next_purchase_id,
        previous_status: standing.previous_status,
        payment_failed: billing.payment_failed,
        purchase: billing.purchase,
        connects: Connects {
            app_store: super::app_store::user_connects(state, workspace_id).await?,
            mmp_event: serde_json::Map::new(),
        },
    })
}

/// The User item's billing fields of a workspace with `purchases` standing at `standing`.
#[derive(Debug)]
struct Billing {
    next_purchase_id: Option<String>,
    payment_failed: bool,
    purchase: Option<PurchaseItem>,
}

impl Billing {
    fn of(purchases: &[Purchase], standing: &Standing, now: i64) -> Billing {
        let next_purchase_id = purchases
            .iter()
            .filter(|p| p.started_at > now)
            .min_by_key(|p| (p.started_at, p.id.clone()))
            .map(|p| p.id.clone());
        let failed = |p: &Option<Purchase>| p.as_ref().is_some_and(|p| p.full && p.payment_failed);
        let purchase = standing.current.as_ref().and_then(|current| {
            plans::items(purchases)
                .into_iter()
                .find(|item| item.id == current.id)
        });
        Billing {
            next_purchase_id,
            payment_failed: failed(&standing.current)
                || (standing.previous_status == Some(PreviousStatus::Full)
                    && failed(&standing.ended)),
            purchase,
        }
    }
}

/// The item of the caller.
pub async fn of(state: &AppState, user: &CurrentUser) -> Result<UserItem, ApiError> {
    load(state, &user.user_id, &user.workspace_id).await
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    const NOW: i64 = 1_800_000_000_000;
    const DAY: i64 = 24 * 3_600_000;

    fn pro(id: &str, started_at: i64, end: Option<i64>, payment_failed: bool) -> Purchase {
        Purchase {
            id: id.into(),
            name: "pro".into(),
            free: false,
            trial: false,
            full: true,
            organization: false,
            trial_kind: None,
            suggester: true,
            payment_failed,
            started_at,
            off_account_time: end,
        }
    }

    fn billing(purchases: &[Purchase], now: i64) -> (Billing, Standing) {
        let standing = derive::derive(purchases, Decimal::ZERO, now);
        (Billing::of(purchases, &standing, now), standing)
    }

    #[test]
    fn billing_fields_follow_the_purchases() {
        // None: free, nothing next, nothing failed.
        let (b, s) = billing(&[], NOW);
        assert_eq!(
            (b.next_purchase_id, b.payment_failed, b.purchase.is_none()),
            (None, false, true)
        );
        assert_eq!(s.previous_status, None);
        // Pro in force, its renewal bought to follow it.
        let month = 30 * DAY;
        let purchases = [
            pro("renewal", NOW + month, Some(NOW + 2 * month), false),
            pro("now", NOW - DAY, Some(NOW + month), false),
        ];
        let (b, _) = billing(&purchases, NOW);
        assert_eq!(b.next_purchase_id.as_deref(), Some("renewal"));
        assert_eq!(b.purchase.map(|p| p.id), Some("now".to_string()));
        assert!(!b.payment_failed);
        // A failed payment: in the 168 h grace the plan is still in force and failed...
        let failed = [pro("now", NOW - month, Some(NOW - DAY), true)];
        let (b, s) = billing(&failed, NOW);
        assert!(b.payment_failed);
        assert_eq!(b.purchase.map(|p| p.id), Some("now".to_string()));
        assert_eq!(s.previous_status, None);
        // ...and after it the workspace is free, billing blocked.
        let (b, s) = billing(&failed, NOW + 7 * DAY);
        assert!(b.payment_failed && b.purchase.is_none());
        assert_eq!(s.previous_status, Some(PreviousStatus::Full));
        // A plan that simply ended is no failure.
        let ended = [pro("old", NOW - month, Some(NOW - DAY), false)];
        let (b, s) = billing(&ended, NOW);
        assert!(!b.payment_failed);
        assert_eq!(s.previous_status, Some(PreviousStatus::Full));
    }

    #[test]
    fn spend_is_sent_as_a_number_with_its_exact_digits() {
        for (amount, json) in [
            ("0", "0.0"),
            ("1234567.89", "1234567.89"),
            ("0.1", "0.1"),
            ("9999999999999.99", "9999999999999.99"),
        ] {
            #[derive(Serialize)]
            struct Spend {
                #[serde(with = "rust_decimal::serde::float")]
                v: Decimal,
            }
            let v = Decimal::from_str(amount).unwrap();
            assert_eq!(
                serde_json::to_string(&Spend { v }).unwrap(),
                format!("{{\"v\":{json}}}")
            );
        }
    }
}
