//! A bulk edit's request checked and planned: the field and action of the level, the money
//! amounts in the campaign group's currency, every id a live entity of the scope, and each
//! item's new value computed from our stored one before the job is enqueued.

use searchdeck_common::{
    jobs::{BulkEditItem, money_text},
    money::currency::MoneyRule,
};
use serde_json::Value;

use super::{
    BulkEditRequest, BulkEditStarted, Scope,
    describe::describe,
    enqueue, ids, live_rows,
    target::{Change, percent, target},
};
use crate::{
    error::{ApiError, FieldError},
    routes::edits::{STATUSES, check, money, parse_status},
    state::AppState,
};

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
                format!("Must be one of: {}", STATUSES.join(", ")),
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
