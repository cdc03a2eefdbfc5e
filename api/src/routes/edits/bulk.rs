//! Bulk edits (issue 10; spec §2 bulk edit headers, §5 editable money field, §7
//! `asa/campaigns/updates`, `asa/groups/updates/{id}`, `asa/keywords/update/targeting/{id}`):
//! one field of up to 10,000 campaigns, ad groups or keywords of one campaign group — set a
//! value, raise or lower by an amount or a percentage (with an optional floor and cap), pause
//! or enable — run as a `bulk-edit` job whose task the browser polls (`GET /api/tasks/{id}`).
//!
//! The route checks everything before anything is enqueued: the editor guard (readers 403),
//! the entities in the caller's workspace (an unknown id or another workspace's answers 404),
//! the money rules of the quick edits, at most 10,000 items. It then computes each item's
//! new value from our stored current value, once: the job only sends absolute values, so a
//! retried job can never apply a relative change twice.

use std::collections::{HashMap, HashSet};

use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::{
    jobs::{BULK_EDIT_MAX_ITEMS, BulkEdit, BulkEditItem, money_text},
    money::currency::MoneyRule,
    queue::Job,
    store::{campaign_views::CampaignRow, synced::bulk},
    tasks::NewTask,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{check, money, parse_status};
use crate::{
    access::Editor,
    error::{ApiError, FieldError},
    session::CurrentUser,
    state::AppState,
};

/// Message of a bulk edit over [`BULK_EDIT_MAX_ITEMS`].
pub const TOO_MANY: &str = "A bulk edit takes at most 10,000 items. Select fewer and try again";

/// The body of a bulk edit: which entities, which field, what to do.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditRequest {
    /// Apple's ids of the entities (campaigns, ad groups or keywords, per route); at most
    /// 10,000. Also accepted as `campaignIds`, `adGroupIds`, `keywordIds`.
    #[serde(alias = "campaignIds", alias = "adGroupIds", alias = "keywordIds")]
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<String>>)]
    pub ids: Option<Vec<i64>>,
    /// The column: `dailyBudget` (campaigns), `defaultBidAmount` or `cpaGoal` (ad groups),
    /// `cptBid` (keywords), or `status`. Defaults to `status` for pause and enable.
    pub field: Option<String>,
    /// `set`, `raise`, `lower`, `pause` or `enable`.
    pub action: Option<String>,
    /// The amount to set, or to raise or lower by (money in the campaign group's currency;
    /// for `set` on `status`, ENABLED or PAUSED).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub value: Option<Value>,
    /// The percentage to raise or lower by (instead of `value`), e.g. 10.
    #[schema(value_type = Option<f64>)]
    pub percent: Option<Value>,
    /// No new amount below this (raise and lower).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub floor: Option<Value>,
    /// No new amount above this (raise and lower).
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cap: Option<Value>,
}

/// The answer of a bulk edit: the task to poll.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkEditStarted {
    /// The background task (`GET /api/tasks/{id}`); its details list every item's result.
    pub task_id: String,
    pub level: String,
    pub field: String,
    pub operation: String,
    /// Items in the job.
    pub total: usize,
}

/// What to do to each item's amount.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Set(i64),
    By { micros: i64, up: bool },
    Percent { percent: Decimal, up: bool },
}

/// The new amount of an item now at `current`: floored to the currency (spec §5), never
/// negative, then held within `floor` and `cap`. Err when a relative change has no current
/// value to start from.
pub fn target(
    current: Option<i64>,
    change: &Change,
    floor: Option<i64>,
    cap: Option<i64>,
    rule: MoneyRule,
) -> Result<i64, &'static str> {
    let amount = match change {
        Change::Set(v) => Decimal::new(*v, 6),
        Change::By { micros, up } => {
            let c = Decimal::new(current.ok_or(NO_VALUE)?, 6);
            let by = Decimal::new(*micros, 6);
            if *up { c + by } else { c - by }
        }
        Change::Percent { percent, up } => {
            let c = Decimal::new(current.ok_or(NO_VALUE)?, 6);
            let factor = Decimal::ONE + if *up { *percent } else { -*percent } / Decimal::from(100);
            c * factor
        }
    };
    let mut micros = (rule.floor(amount.max(Decimal::ZERO)) * Decimal::from(1_000_000))
        .to_i64()
        .unwrap_or(i64::MAX);
    if let Some(f) = floor {
        micros = micros.max(f);
    }
    if let Some(c) = cap {
        micros = micros.min(c);
    }
    Ok(micros)
}

const NO_VALUE: &str = "No current value to change";

/// The editable fields per level, with the label money messages use.
fn fields(level: &str) -> &'static [(&'static str, &'static str)] {
    match level {
        "CAMPAIGN" => &[("dailyBudget", "Daily budget"), ("status", "Status")],
        "AD_GROUP" => &[
            ("defaultBidAmount", "Default bid"),
            ("cpaGoal", "CPA goal"),
            ("status", "Status"),
        ],
        _ => &[("cptBid", "Bid"), ("status", "Status")],
    }
}

/// The campaign group a bulk edit runs in.
pub struct Scope<'a> {
    pub user: &'a CurrentUser,
    pub account_id: &'a str,
    pub org_key: i64,
    pub org_id: i64,
    pub currency: Option<&'a str>,
    /// Only entities of this campaign (ad groups and keywords).
    pub campaign_id: Option<i64>,
}

/// The bulk actions, as the document spells them.
pub const ACTIONS: &[&str] = &["set", "raise", "lower", "pause", "enable"];

/// Validates `body` for `level` in `scope`, computes every item's target from our stored
/// values, and enqueues the `bulk-edit` job with its task.
pub async fn start(
    state: &AppState,
    scope: Scope<'_>,
    level: &'static str,
    what: &'static str,
    body: BulkEditRequest,
) -> Result<BulkEditStarted, ApiError> {
    let mut errors = Vec::new();
    let ids = ids(body.ids, "ids", &mut errors);
    let action = match body.action.as_deref() {
        Some(raw) => crate::domain::one_of("action", raw, ACTIONS)
            .map_err(|e| errors.push(e))
            .unwrap_or_default(),
        None => {
            errors.push(FieldError::new("action", crate::domain::REQUIRED));
            ""
        }
    };
    let field = match body.field.as_deref().map(str::trim) {
        Some(f) if !f.is_empty() => f.to_string(),
        _ if action == "pause" || action == "enable" => "status".to_string(),
        _ => {
            errors.push(FieldError::new("field", crate::domain::REQUIRED));
            String::new()
        }
    };
    let label = fields(level).iter().find(|(f, _)| *f == field).map(|x| x.1);
    if label.is_none() && !field.is_empty() {
        let names: Vec<&str> = fields(level).iter().map(|x| x.0).collect();
        errors.push(FieldError::new(
            "field",
            format!("Field must be one of {}", names.join(", ")),
        ));
    }
    let is_status = field == "status";
    let currency = scope.currency;
    let mut parse_money = |name: &str, v: Option<&Value>| {
        let label = label.unwrap_or("Amount");
        v.and_then(|v| {
            money::parse(name, &format!("{label} ({name})"), v, currency)
                .map_err(|e| errors.push(e))
                .ok()
        })
    };
    let floor = parse_money("floor", body.floor.as_ref());
    let cap = parse_money("cap", body.cap.as_ref());
    let mut status_target = None;
    let mut change = None;
    match (action, is_status) {
        ("pause", _) | ("enable", _) if !is_status && label.is_some() => errors.push(
            FieldError::new("field", "Pause and enable change the status"),
        ),
        ("pause", _) => status_target = Some("PAUSED".to_string()),
        ("enable", _) => status_target = Some("ENABLED".to_string()),
        ("set", true) => match body.value.as_ref().and_then(Value::as_str) {
            Some(s) => {
                status_target = parse_status("value", s).map_err(|e| errors.push(e)).ok();
            }
            None => errors.push(FieldError::new(
                "value",
                format!("Must be one of: {}", super::STATUSES.join(", ")),
            )),
        },
        ("raise" | "lower", true) => errors.push(FieldError::new(
            "action",
            "A status can be set, paused or enabled",
        )),
        ("set", false) => match body.value.as_ref() {
            Some(v) => {
                change = parse_money("value", Some(v)).map(Change::Set);
            }
            None => errors.push(FieldError::new("value", crate::domain::REQUIRED)),
        },
        ("raise" | "lower", false) => {
            let up = action == "raise";
            match (body.value.as_ref(), body.percent.as_ref()) {
                (Some(v), None) => {
                    change = parse_money("value", Some(v)).map(|micros| Change::By { micros, up });
                }
                (None, Some(p)) => match percent(p, up) {
                    Ok(percent) => change = Some(Change::Percent { percent, up }),
                    Err(e) => errors.push(e),
                },
                _ => errors.push(FieldError::new(
                    "value",
                    "Give either an amount (value) or a percentage (percent)",
                )),
            }
        }
        _ => {}
    }
    if let (Some(f), Some(c)) = (floor, cap)
        && f > c
    {
        errors.push(FieldError::new(
            "floor",
            "The floor must not be above the cap",
        ));
    }
    check(errors)?;

    let rows = live_rows(state, &scope, level, &field, &ids, what).await?;
    let rule = MoneyRule::of(currency);
    let items: Vec<BulkEditItem> = ids
        .iter()
        .map(|id| {
            let row = &rows[id];
            match (&status_target, &change) {
                (Some(s), _) => BulkEditItem::to(*id, Some(s.clone())),
                (None, Some(c)) => match target(row.money, c, floor, cap, rule) {
                    Ok(m) => BulkEditItem::to(*id, money_text(Some(m))),
                    Err(note) => BulkEditItem {
                        note: Some(note.to_string()),
                        ..BulkEditItem::to(*id, None)
                    },
                },
                (None, None) => BulkEditItem {
                    note: Some("Nothing to change".into()),
                    ..BulkEditItem::to(*id, None)
                },
            }
        })
        .collect();
    let operation = describe(
        action,
        &field,
        body.value.as_ref(),
        body.percent.as_ref(),
        (what, items.len()),
        scope.currency,
    );
    enqueue(state, &scope, level, &field, operation, items).await
}

/// The distinct ids of `raw` (sent as `field`): at least one, at most 10,000; else a field
/// error in `errors`.
pub fn ids(raw: Option<Vec<i64>>, field: &str, errors: &mut Vec<FieldError>) -> Vec<i64> {
    let mut seen = HashSet::new();
    let ids: Vec<i64> = raw
        .unwrap_or_default()
        .into_iter()
        .filter(|id| seen.insert(*id))
        .collect();
    if ids.is_empty() {
        errors.push(FieldError::new(field, crate::domain::REQUIRED));
    } else if ids.len() > BULK_EDIT_MAX_ITEMS {
        errors.push(FieldError::new(field, TOO_MANY));
    }
    ids
}

/// Entities `ids` of `level` in the scope's campaign group (and campaign), with the current
/// value of `field`: every id must be a live one, else 404 naming `what`.
pub async fn live_rows(
    state: &AppState,
    scope: &Scope<'_>,
    level: &str,
    field: &str,
    ids: &[i64],
    what: &'static str,
) -> Result<HashMap<i64, bulk::BulkRow>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    let rows: HashMap<i64, bulk::BulkRow> = bulk::rows(
        &mut conn,
        scope.org_key,
        level,
        field,
        scope.campaign_id,
        ids,
    )
    .await?
    .into_iter()
    .filter(|r| !r.deleted)
    .map(|r| (r.id, r))
    .collect();
    if let Some(missing) = ids.iter().find(|id| !rows.contains_key(id)) {
        tracing::info!(id = missing, level, "bulk edit names an unknown entity");
        return Err(ApiError::not_found(what));
    }
    Ok(rows)
}

/// Enqueues the `bulk-edit` job of `items` with its task, described by `operation`.
pub async fn enqueue(
    state: &AppState,
    scope: &Scope<'_>,
    level: &str,
    field: &str,
    operation: String,
    items: Vec<BulkEditItem>,
) -> Result<BulkEditStarted, ApiError> {
    let total = items.len();
    let job = BulkEdit {
        workspace_id: scope.user.workspace_id.clone(),
        user_id: Some(scope.user.user_id.clone()),
        user_email: Some(scope.user.email.clone()),
        account_id: scope.account_id.to_string(),
        org_key: scope.org_key,
        org_id: scope.org_id,
        currency: scope.currency.map(str::to_string),
        level: level.to_string(),
        field: field.to_string(),
        operation: operation.clone(),
        items,
    };
    let task_id = state
        .start_task(
            NewTask {
                workspace_id: &scope.user.workspace_id,
                user_id: Some(&scope.user.user_id),
                kind: BulkEdit::KIND,
                message: &operation,
                total_steps: total as i64,
                account_id: Some(scope.account_id),
                org_id: Some(scope.org_id),
            },
            &job,
        )
        .await?;
    tracing::info!(task.id = %task_id, level, field, items = total, "bulk edit queued");
    Ok(BulkEditStarted {
        task_id,
        level: level.to_string(),
        field: field.to_string(),
        operation,
        total,
    })
}

/// A percentage: a JSON number above 0 (at most 100 to lower, 1,000 to raise).
fn percent(raw: &Value, up: bool) -> Result<Decimal, FieldError> {
    let err = |m: &str| FieldError::new("percent", m);
    let text = match raw {
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let p: Decimal = text
        .parse()
        .map_err(|_| err("Percentage must be a number"))?;
    let max = Decimal::from(if up { 1000 } else { 100 });
    if p <= Decimal::ZERO {
        return Err(err("Percentage must be above 0"));
    }
    if p > max {
        return Err(err(if up {
            "Percentage must be at most 1000"
        } else {
            "Percentage must be at most 100"
        }));
    }
    Ok(p)
}

/// The task's message: what was asked.
fn describe(
    action: &str,
    field: &str,
    value: Option<&Value>,
    percent: Option<&Value>,
    (what, count): (&str, usize),
    currency: Option<&str>,
) -> String {
    let shown = |v: Option<&Value>| {
        v.map(|v| match v {
            Value::Object(o) => o.get("amount").map(|a| a.to_string()).unwrap_or_default(),
            other => other.to_string(),
        })
        .unwrap_or_default()
        .trim_matches('"')
        .to_string()
    };
    let rows = format!(
        "{count} {}{}",
        what.to_lowercase(),
        if count == 1 { "" } else { "s" }
    );
    let money = |v: Option<&Value>| match currency {
        Some(c) => format!("{} {c}", shown(v)),
        None => shown(v),
    };
    let field = field_words(field);
    match action {
        "pause" => format!("Pause {rows}"),
        "enable" => format!("Enable {rows}"),
        "set" => format!("Set the {field} of {rows} to {}", money(value)),
        _ => {
            let verb = if action == "raise" { "Raise" } else { "Lower" };
            match percent {
                Some(p) => format!("{verb} the {field} of {rows} by {}%", shown(Some(p))),
                None => format!("{verb} the {field} of {rows} by {}", money(value)),
            }
        }
    }
}

/// A money field as the tables name it, for task messages ('bid', not 'cptBid').
fn field_words(field: &str) -> &str {
    match field {
        "cptBid" | "bid" => "bid",
        "defaultBidAmount" | "defaultBid" => "default bid",
        "cpaGoal" => "CPA goal",
        "dailyBudget" | "dailyBudgetAmount" => "daily budget",
        other => other,
    }
}

/// The scope of campaign `c`: its entities only.
pub fn campaign_scope<'a>(caller: &'a Editor, c: &'a CampaignRow) -> Scope<'a> {
    Scope {
        campaign_id: Some(c.id),
        ..group_scope(caller, c)
    }
}

/// The scope of the campaign group of `c`, every campaign of it.
pub fn group_scope<'a>(caller: &'a Editor, c: &'a CampaignRow) -> Scope<'a> {
    Scope {
        user: caller.user(),
        account_id: &c.account_id,
        org_key: c.org_key,
        org_id: c.org_id,
        currency: c.currency.as_deref(),
        campaign_id: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_say_what_they_do_in_the_tables_words() {
        use serde_json::json;
        let four = ("Keyword", 4);
        assert_eq!(
            describe("raise", "cptBid", None, Some(&json!(10)), four, Some("USD")),
            "Raise the bid of 4 keywords by 10%"
        );
        assert_eq!(
            describe(
                "set",
                "dailyBudget",
                Some(&json!("5.00")),
                None,
                ("Campaign", 1),
                Some("EUR")
            ),
            "Set the daily budget of 1 campaign to 5.00 EUR"
        );
        assert_eq!(
            describe(
                "lower",
                "defaultBidAmount",
                Some(&json!({"amount": "0.2"})),
                None,
                ("Ad group", 2),
                None
            ),
            "Lower the default bid of 2 ad groups by 0.2"
        );
        assert_eq!(
            describe("pause", "status", None, None, four, None),
            "Pause 4 keywords"
        );
    }

    fn usd() -> MoneyRule {
        MoneyRule::of(Some("USD"))
    }

    #[test]
    fn targets_are_floored_and_held_within_floor_and_cap() {
        let pct = |p: i64, up| Change::Percent {
            percent: Decimal::from(p),
            up,
        };
        assert_eq!(
            target(Some(1_500_000), &pct(10, true), None, None, usd()),
            Ok(1_650_000)
        );
        // 1.23 * 1.1 = 1.353, floored to cents.
        assert_eq!(
            target(Some(1_230_000), &pct(10, true), None, None, usd()),
            Ok(1_350_000)
        );
        assert_eq!(
            target(Some(1_000_000), &pct(50, false), None, None, usd()),
            Ok(500_000)
        );
        assert_eq!(
            target(Some(1_000_000), &pct(50, false), Some(800_000), None, usd()),
            Ok(800_000)
        );
        assert_eq!(
            target(
                Some(1_000_000),
                &pct(100, true),
                None,
                Some(1_500_000),
                usd()
            ),
            Ok(1_500_000)
        );
        let by = |m, up| Change::By { micros: m, up };
        assert_eq!(
            target(Some(1_000_000), &by(300_000, false), None, None, usd()),
            Ok(700_000)
        );
        assert_eq!(
            target(Some(100_000), &by(300_000, false), None, None, usd()),
            Ok(0),
            "never negative"
        );
        assert_eq!(target(None, &by(1, true), None, None, usd()), Err(NO_VALUE));
        assert_eq!(
            target(None, &Change::Set(2_000_000), None, None, usd()),
            Ok(2_000_000)
        );
        assert_eq!(
            target(
                Some(100_000_000),
                &pct(10, true),
                None,
                None,
                MoneyRule::of(Some("JPY"))
            ),
            Ok(110_000_000)
        );
    }

    #[test]
    fn percentages_are_bounded() {
        assert!(percent(&serde_json::json!(10), true).is_ok());
        assert!(percent(&serde_json::json!(12.5), false).is_ok());
        // A percentage is a JSON number, as documented: the string "12.5" is refused.
        assert!(percent(&serde_json::json!("12.5"), false).is_err());
        assert!(percent(&serde_json::json!(0), true).is_err());
        assert!(percent(&serde_json::json!(101), false).is_err());
        assert!(percent(&serde_json::json!("x"), true).is_err());
    }
}
