//! Titles as the log shows them ("Bid changed", "Status changed on 2,000 keywords", "Rule
//! 'X' changed 12 keywords", "3 campaigns created").

/// A field as a title names it.
pub fn field(field: &str) -> &'static str {
    match field {
        "cptBid" | "bid" => "Bid",
        "defaultBidAmount" => "Default bid",
        "dailyBudget" => "Daily budget",
        "budgetAmount" => "Budget",
        "cpaGoal" => "CPA goal",
        "status" => "Status",
        "name" => "Name",
        "searchMatch" | "automatedKeywordsOptIn" => "Search Match",
        _ => "Setting",
    }
}

/// A level's noun, singular or plural.
pub fn noun(level: &str, n: i64) -> &'static str {
    let (one, many) = match level {
        "CAMPAIGN" => ("campaign", "campaigns"),
        "AD_GROUP" => ("ad group", "ad groups"),
        "NEGATIVE_KEYWORD" => ("negative keyword", "negative keywords"),
        "AD" => ("ad", "ads"),
        "KEYWORD" => ("keyword", "keywords"),
        _ => ("item", "items"),
    };
    if n == 1 { one } else { many }
}

/// `n` with thousands separators (2,000).
pub fn count(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A member's change of `field` on `n` entities of `level`.
pub fn manual(level: &str, field: &str, n: i64) -> String {
    match (field, n) {
        ("deleted", 1) => format!("{} deleted", capitalised(noun(level, 1))),
        ("deleted", n) => format!("{} {} deleted", count(n), noun(level, n)),
        ("created", 1) => format!("{} added", capitalised(noun(level, 1))),
        ("created", n) => format!("{} {} added", count(n), noun(level, n)),
        (f, 1) => format!("{} changed", self::field(f)),
        (f, n) => format!(
            "{} changed on {} {}",
            self::field(f),
            count(n),
            noun(level, n)
        ),
    }
}

/// A quick edit of `fields` of one entity of `level`.
pub fn quick(level: &str, fields: &[&str]) -> String {
    match fields {
        [one] => manual(level, one, 1),
        _ => format!("{} changed", capitalised(noun(level, 1))),
    }
}

/// Rule `name`'s run that changed `n` entities of `level`.
pub fn rule(name: &str, level: &str, n: i64) -> String {
    format!("Rule '{name}' changed {} {}", count(n), noun(level, n))
}

/// `n` campaigns created.
pub fn created(n: i64) -> String {
    format!("{} {} created", count(n), noun("CAMPAIGN", n))
}

/// The undo of notification titled `original`.
pub fn undo(original: &str) -> String {
    format!("Undone: {original}")
}
