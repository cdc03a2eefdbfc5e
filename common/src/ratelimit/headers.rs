//! What a provider response says about its rate limit, read from its headers.
//!
//! Apple Ads Platform API v1 sends `RateLimit-Limit`, `RateLimit-Remaining` and
//! `RateLimit-Reset` (seconds) on every response and `Retry-After` (seconds or an HTTP date)
//! on 429. The IETF draft's `RateLimit-Policy: 10;w=1` is read for the window when present.

use std::time::{Duration, SystemTime};

use http::HeaderMap;

/// The rate-limit facts of one response, as [`crate::ratelimit::RateLimiter::observe`]
/// takes them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateLimitInfo {
    /// HTTP status of the response (429 pauses every process for the key).
    pub status: u16,
    /// `RateLimit-Limit`: requests allowed per window.
    pub limit: Option<u64>,
    /// `RateLimit-Remaining`: requests left in the current window.
    pub remaining: Option<u64>,
    /// `RateLimit-Reset`: time until the window resets.
    pub reset: Option<Duration>,
    /// `Retry-After` (429 and 503): time to wait before the next request.
    pub retry_after: Option<Duration>,
    /// Window length from `RateLimit-Policy` (`w=`), when the server sends it.
    pub window: Option<Duration>,
}

impl RateLimitInfo {
    /// Reads the rate-limit headers of a response (`http::HeaderMap`, as reqwest and axum
    /// expose it). Unparseable values are ignored.
    pub fn from_headers(status: u16, headers: &HeaderMap) -> RateLimitInfo {
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
        };
        let number = |name: &str| text(name).and_then(first_integer);
        RateLimitInfo {
            status,
            limit: number("ratelimit-limit"),
            remaining: number("ratelimit-remaining"),
            reset: number("ratelimit-reset").map(Duration::from_secs),
            retry_after: text("retry-after").and_then(|v| parse_retry_after(v, SystemTime::now())),
            window: text("ratelimit-policy").and_then(policy_window),
        }
    }

    /// A bare 429 with the given `Retry-After`, for callers without headers at hand.
    pub fn too_many_requests(retry_after: Option<Duration>) -> RateLimitInfo {
        RateLimitInfo {
            status: 429,
            retry_after,
            ..RateLimitInfo::default()
        }
    }

    /// Whether the response was a 429.
    pub fn is_rate_limited(&self) -> bool {
        self.status == 429
    }
}

/// The leading integer of a header value (`"10"`, `"10, 100;w=60"`, `"10;w=1"`).
fn first_integer(value: &str) -> Option<u64> {
    let digits: &str = value
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .filter(|d| !d.is_empty())?;
    digits.parse().ok()
}

/// `Retry-After`: delay seconds, or an HTTP date (a date in the past means no wait).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The `w=` parameter of the first policy in `RateLimit-Policy`.
fn policy_window(value: &str) -> Option<Duration> {
    let first = value.split(',').next()?;
    first.split(';').skip(1).find_map(|param| {
        let (name, v) = param.split_once('=')?;
        (name.trim() == "w")
            .then(|| v.trim().parse::<u64>().ok())
            .flatten()
            .filter(|w| *w > 0)
            .map(Duration::from_secs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn reads_the_v1_headers() {
        let mut h = HeaderMap::new();
        h.insert("RateLimit-Limit", HeaderValue::from_static("20"));
        h.insert("ratelimit-remaining", HeaderValue::from_static("3"));
        h.insert("ratelimit-reset", HeaderValue::from_static("1"));
        h.insert("retry-after", HeaderValue::from_static("2"));
        h.insert(
            "ratelimit-policy",
            HeaderValue::from_static("20;w=1, 1000;w=3600"),
        );
        let info = RateLimitInfo::from_headers(429, &h);
        assert_eq!(info.limit, Some(20));
        assert_eq!(info.remaining, Some(3));
        assert_eq!(info.reset, Some(Duration::from_secs(1)));
        assert_eq!(info.retry_after, Some(Duration::from_secs(2)));
        assert_eq!(info.window, Some(Duration::from_secs(1)));
        assert!(info.is_rate_limited());
        assert_eq!(
            RateLimitInfo::from_headers(200, &HeaderMap::new()).limit,
            None
        );
    }

    #[test]
    fn retry_after_accepts_http_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let later = parse_retry_after("Sun, 06 Nov 1994 08:49:40 GMT", now);
        assert_eq!(later, Some(Duration::from_secs(3)));
        let past = parse_retry_after("Sun, 06 Nov 1994 08:49:30 GMT", now);
        assert_eq!(past, Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
    }
}
