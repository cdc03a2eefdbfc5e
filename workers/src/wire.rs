//! Apple's answers as the workers read them: the entities of `POST /{entity}/query` and of
//! a write's answer as the rows `store::synced::entities` keeps ([`campaign`], [`ad_group`],
//! [`keyword`], [`negative`], [`ad`], [`creative`], [`product_page`]), wire amounts as exact
//! micros ([`micros`]), and a provider failure as a job outcome ([`job_error`]). Every job
//! that talks to Apple reads through here, so a field is spelt once.

use searchdeck_common::{queue::JobError, store::synced::entities};
use searchdeck_provider::ProviderError;
use serde_json::Value;

/// A provider failure as a job outcome: 429s wait without spending an attempt, transient
/// failures retry, refusals (bad credentials, rejected requests) fail the job.
pub fn job_error(e: ProviderError) -> JobError {
    match e {
        ProviderError::RateLimited { retry_after } => JobError::RateLimited {
            retry_after,
            source: anyhow::anyhow!("Apple Ads rate limit"),
        },
        ProviderError::Retryable { .. } | ProviderError::Decode(_) => JobError::retryable(e),
        ProviderError::Permanent { .. } | ProviderError::Auth(_) => JobError::permanent(e),
    }
}

/// Exact micros of a wire amount (`"1.23"`, or a `Money` object, or a number).
pub fn micros(v: &Value) -> Option<i64> {
    let v = if v.is_object() { &v["amount"] } else { v };
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let text = text.trim();
    let (neg, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let whole: i64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut frac_digits: String = frac.chars().take(6).collect();
    if !frac_digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    while frac_digits.len() < 6 {
        frac_digits.push('0');
    }
    let value = whole.checked_mul(1_000_000)? + frac_digits.parse::<i64>().ok()?;
    Some(if neg { -value } else { value })
}

/// A wire value as text (a number or object in its JSON spelling), None for null.
pub fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

fn req_int(v: &Value, field: &str) -> Result<i64, JobError> {
    int(&v[field])
        .ok_or_else(|| JobError::retryable(anyhow::anyhow!("provider entity without {field}: {v}")))
}

fn deleted(v: &Value) -> bool {
    v["deleted"].as_bool().unwrap_or(false)
}

pub fn campaign(v: &Value) -> Result<entities::Campaign, JobError> {
    let budget = &v["dailyBudget"];
    let budget = if budget.get("value").is_some() {
        &budget["value"]
    } else {
        budget
    };
    Ok(entities::Campaign {
        id: req_int(v, "id")?,
        name: text(&v["name"]).unwrap_or_default(),
        adam_id: int(&v["promotedObjectId"]).or_else(|| int(&v["adamId"])),
        status: text(&v["status"]).unwrap_or_default(),
        display_status: text(&v["displayStatus"]),
        system_status: text(&v["systemStatus"]),
        daily_budget_micros: micros(budget),
        countries: v["targeting"]["countryOrRegion"]["include"]
            .as_array()
            .map(|a| Value::Array(a.clone()).to_string()),
        start_time: text(&v["startTime"]),
        end_time: text(&v["endTime"]),
        creation_time: text(&v["creationTime"]),
        modification_time: text(&v["modificationTime"]),
        deleted: deleted(v),
        body: Some(v.to_string()),
    })
}

pub fn ad_group(v: &Value) -> Result<entities::AdGroup, JobError> {
    let cpa = &v["cpaCap"];
    let cpa = if cpa.get("value").is_some() {
        &cpa["value"]
    } else {
        cpa
    };
    Ok(entities::AdGroup {
        id: req_int(v, "id")?,
        campaign_id: req_int(v, "campaignId")?,
        name: text(&v["name"]).unwrap_or_default(),
        status: text(&v["status"]).unwrap_or_default(),
        display_status: text(&v["displayStatus"]),
        system_status: text(&v["systemStatus"]),
        default_bid_micros: micros(&v["bidStrategy"]["bid"])
            .or_else(|| micros(&v["defaultBidAmount"])),
        cpa_goal_micros: micros(cpa),
        automated_keywords_opt_in: v["automatedKeywordsOptIn"].as_bool().unwrap_or(false),
        start_time: text(&v["startTime"]),
        end_time: text(&v["endTime"]),
        modification_time: text(&v["modificationTime"]),
        deleted: deleted(v),
        body: Some(v.to_string()),
    })
}

pub fn keyword(v: &Value) -> Result<entities::Keyword, JobError> {
    Ok(entities::Keyword {
        id: req_int(v, "id")?,
        campaign_id: req_int(v, "campaignId")?,
        ad_group_id: req_int(v, "adGroupId")?,
        text: text(&v["text"]).unwrap_or_default(),
        match_type: text(&v["matchType"]).unwrap_or_default(),
        bid_micros: micros(&v["bid"]),
        status: text(&v["status"]).unwrap_or_default(),
        display_status: text(&v["displayStatus"]),
        modification_time: text(&v["modificationTime"]),
        deleted: deleted(v),
    })
}

pub fn negative(v: &Value) -> Result<entities::NegativeKeyword, JobError> {
    Ok(entities::NegativeKeyword {
        id: req_int(v, "id")?,
        campaign_id: req_int(v, "campaignId")?,
        ad_group_id: int(&v["adGroupId"]),
        text: text(&v["text"]).unwrap_or_default(),
        match_type: text(&v["matchType"]).unwrap_or_default(),
        status: text(&v["status"]).unwrap_or_default(),
        modification_time: text(&v["modificationTime"]),
        deleted: deleted(v),
    })
}

pub fn ad(v: &Value) -> Result<entities::Ad, JobError> {
    Ok(entities::Ad {
        id: req_int(v, "id")?,
        campaign_id: req_int(v, "campaignId")?,
        ad_group_id: req_int(v, "adGroupId")?,
        creative_id: int(&v["creativeId"]),
        name: text(&v["name"]).unwrap_or_default(),
        status: text(&v["status"]).unwrap_or_default(),
        display_status: text(&v["displayStatus"]),
        system_status: text(&v["systemStatus"]),
        modification_time: text(&v["modificationTime"]),
        deleted: deleted(v),
        body: Some(v.to_string()),
    })
}

pub fn creative(v: &Value) -> Result<entities::Creative, JobError> {
    Ok(entities::Creative {
        id: req_int(v, "id")?,
        name: text(&v["name"]).unwrap_or_default(),
        creative_type: text(&v["creativeType"]),
        product_page_id: text(&v["destination"]["parameters"]["productPageId"]),
        system_status: text(&v["systemStatus"]),
        deleted: deleted(v),
        body: Some(v.to_string()),
    })
}

pub fn product_page(v: &Value) -> Result<entities::ProductPage, JobError> {
    Ok(entities::ProductPage {
        id: text(&v["id"])
            .ok_or_else(|| JobError::retryable(anyhow::anyhow!("product page without id: {v}")))?,
        adam_id: req_int(v, "adamId")?,
        name: text(&v["name"]).unwrap_or_default(),
        state: text(&v["state"]),
        body: Some(v.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::micros;
    use serde_json::json;

    #[test]
    fn amounts_become_exact_micros() {
        assert_eq!(micros(&json!("1.23")), Some(1_230_000));
        assert_eq!(
            micros(&json!({"amount": "0.5", "currency": "USD"})),
            Some(500_000)
        );
        assert_eq!(micros(&json!("100")), Some(100_000_000));
        assert_eq!(micros(&json!(2)), Some(2_000_000));
        assert_eq!(micros(&json!("0.000001")), Some(1));
        assert_eq!(micros(&json!(null)), None);
        assert_eq!(micros(&json!("abc")), None);
    }
}
