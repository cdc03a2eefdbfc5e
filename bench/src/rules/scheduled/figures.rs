//! The figures of one backend's scheduled run: runs by outcome, calls and 429s at the
//! sandbox and as the client counted them, the limiter's use of the allowed rate per ad
//! account and the wall time against the theoretical minimum — as one JSON value, printed as
//! lines or as it is.

use std::{collections::BTreeMap, time::Duration, time::Instant};

use serde_json::{Value, json};

use super::ScheduledArgs;
use super::setup::Setup;
use super::timed::Measured;

/// The figures of one backend's run, as printed.
pub(super) fn figures(backend: &str, args: &ScheduledArgs, setup: &Setup, m: &Measured) -> Value {
    let limit = f64::from(args.requests_per_second);
    let mut per_account: BTreeMap<i64, Vec<Instant>> = BTreeMap::new();
    for c in &m.calls {
        if let Some(a) = c.account {
            per_account.entry(a).or_default().push(c.at);
        }
    }
    let too_many = m.calls.iter().filter(|c| c.status == 429).count();
    // 429s in the first two seconds of their ad account's calls (before and right after the
    // limiter learnt the pace from `RateLimit-Limit`).
    let early_429 = m
        .calls
        .iter()
        .filter(|c| c.status == 429)
        .filter(|c| {
            c.account
                .and_then(|a| per_account.get(&a))
                .and_then(|t| t.iter().min())
                .is_some_and(|first| c.at - *first < Duration::from_secs(2))
        })
        .count();
    let mut uses = Vec::new();
    let (mut gaps, mut spans) = (0.0, 0.0);
    for times in per_account.values() {
        let (first, last) = (times.iter().min(), times.iter().max());
        if let (Some(first), Some(last)) = (first, last)
            && times.len() > 1
        {
            let span = (*last - *first).as_secs_f64();
            let n = (times.len() - 1) as f64;
            uses.push(n / (span * limit));
            gaps += n;
            spans += span * limit;
        }
    }
    uses.sort_by(f64::total_cmp);
    let median = uses.get(uses.len() / 2).copied().unwrap_or(0.0);
    let least = uses.first().copied().unwrap_or(0.0);
    let used = if spans > 0.0 { gaps / spans } else { 0.0 };
    let busiest = per_account.values().map(Vec::len).max().unwrap_or(0);
    let minimum = busiest as f64 / limit;
    let wall = m.wall.as_secs_f64();
    let runs: BTreeMap<&str, Value> = m
        .runs
        .iter()
        .map(|(status, n, matched, applied, refused, skipped)| {
            (
                status.as_str(),
                json!({"runs": n, "matched": matched, "applied": applied, "refused": refused,
                    "skipped": skipped}),
            )
        })
        .collect();
    let done = m
        .runs
        .iter()
        .find(|r| r.0 == "DONE")
        .map_or(0, |r| r.1 as usize);
    let last_call = m
        .calls
        .iter()
        .map(|c| c.at)
        .max()
        .map_or(0.0, |t| (t - m.started).as_secs_f64());
    json!({
        "backend": backend, "case": "scheduled_rules",
        "rules": setup.rules, "accounts": setup.orgs.len(),
        "requests_per_second": args.requests_per_second, "concurrency": args.concurrency,
        "done": done, "runs": runs,
        "not_applied": m.not_applied.iter()
            .map(|(r, msg, n)| json!({"result": r, "message": msg, "items": n}))
            .collect::<Vec<_>>(),
        "wall_s": (wall * 100.0).round() / 100.0,
        "first_call_s": m.first_call.map(|d| (d.as_secs_f64() * 100.0).round() / 100.0),
        "last_call_s": (last_call * 100.0).round() / 100.0,
        "calls": m.calls.len(), "calls_429": too_many, "calls_429_first_2s": early_429,
        "busiest_account_calls": busiest,
        "use_aggregate": (used * 1000.0).round() / 1000.0,
        "use_median": (median * 1000.0).round() / 1000.0,
        "use_least": (least * 1000.0).round() / 1000.0,
        "limiter_pace": searchdeck_provider::limiter::settings().safety,
        "minimum_s": (minimum * 100.0).round() / 100.0,
        "ours_over_minimum": if minimum > 0.0 { (wall / minimum * 100.0).round() / 100.0 } else { 0.0 },
        "client": {
            "calls": m.provider.calls, "requests": m.provider.requests,
            "token_exchanges": m.provider.token_exchanges,
            "responses_429": m.provider.rate_limited_responses, "retries": m.provider.retries,
            "limiter_wait_ms": m.provider.limiter_wait_ms, "failed": m.provider.failed(),
        },
    })
}

/// Prints the figures `f` (`json_out`: as one JSON object).
pub(super) fn print(f: &Value, json_out: bool, say: &dyn Fn(&str)) {
    if json_out {
        println!("{f}");
        return;
    }
    say(&format!(
        "scheduled_rules: {} of {} runs DONE ({}) in {:.2} s (first call at {} s, last at {} s)",
        f["done"],
        f["rules"],
        f["runs"],
        f["wall_s"].as_f64().unwrap_or(0.0),
        f["first_call_s"],
        f["last_call_s"]
    ));
    say(&format!("  items not applied: {}", f["not_applied"]));
    say(&format!(
        "  calls {} ({} on the busiest ad account), 429s {} at the sandbox ({} in their ad account's first 2 s), {} seen by the client; client {}",
        f["calls"],
        f["busiest_account_calls"],
        f["calls_429"],
        f["calls_429_first_2s"],
        f["client"]["responses_429"],
        f["client"]
    ));
    say(&format!(
        "  limiter use of the allowed rate: aggregate {}, median {}, least {} (its pace: {} × the limit; target ≥ 0.9: {})",
        f["use_aggregate"],
        f["use_median"],
        f["use_least"],
        f["limiter_pace"],
        if f["use_aggregate"].as_f64().unwrap_or(0.0) >= 0.9 {
            "met"
        } else {
            "NOT met"
        }
    ));
    say(&format!(
        "  theoretical minimum at the limit {} s; ours / minimum {}× (0 × 429: {})",
        f["minimum_s"],
        f["ours_over_minimum"],
        if f["calls_429"].as_u64() == Some(0) {
            "met"
        } else {
            "NOT met"
        }
    ));
}
