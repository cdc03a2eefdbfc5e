//! A bulk edit's task message: what was asked, in the tables' words ("Raise the bid of 4
//! keywords by 10%").

use serde_json::Value;

/// The task's message: what was asked.
pub(super) fn describe(
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
}
