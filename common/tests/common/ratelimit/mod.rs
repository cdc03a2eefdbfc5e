//! The shared rate limiter on every store: several limiter instances (standing in for
//! processes) sharing one key keep to the pace, a 429 seen by one pauses the others, the
//! headers lower and raise the pace, and the shared state never moves backwards in time;
//! a caller that wakes too late for its slot gives it up.

#[macro_use]
mod support;

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use searchdeck_common::ratelimit::{RateLimitInfo, RateLimitSettings, RateLimiter, account_key};
use support::{Fixture, Kind};

fn limit(n: u64) -> RateLimitInfo {
    RateLimitInfo {
        status: 200,
        limit: Some(n),
        remaining: Some(n / 2),
        reset: Some(Duration::from_secs(1)),
        ..RateLimitInfo::default()
    }
}

async fn limiters(fx: &Fixture, n: usize) -> Vec<RateLimiter> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(fx.limiter(RateLimitSettings::default()).await);
    }
    out
}

/// Runs `tasks` callers per limiter acquiring `key` for `run`; returns the send instants.
async fn hammer(limiters: &[RateLimiter], key: &str, tasks: usize, run: Duration) -> Vec<Instant> {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let deadline = Instant::now() + run;
    let mut handles = Vec::new();
    for limiter in limiters {
        for _ in 0..tasks {
            let (limiter, sent, key) = (limiter.clone(), sent.clone(), key.to_string());
            handles.push(tokio::spawn(async move {
                loop {
                    limiter.acquire(&key).await.unwrap();
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    sent.lock().unwrap().push(now);
                }
            }));
        }
    }
    for h in handles {
        h.await.unwrap();
    }
    let mut sent = Arc::try_unwrap(sent).unwrap().into_inner().unwrap();
    sent.sort();
    sent
}

/// The most sends inside any window of length `window`.
fn max_in_window(sent: &[Instant], window: Duration) -> usize {
    let mut best = 0;
    let mut start = 0;
    for (end, t) in sent.iter().enumerate() {
        while *t - sent[start] >= window {
            start += 1;
        }
        best = best.max(end + 1 - start);
    }
    best
}

store_tests! {
    async fn instances_sharing_a_key_keep_to_the_rate(fx: Fixture) {
        let key = account_key("shared");
        let ls = limiters(&fx, 3).await;
        ls[0].observe(&key, &limit(20)).await.unwrap();
        let sent = hammer(&ls, &key, 3, Duration::from_millis(2500)).await;
        // 20/s at 95%: 19 per second, spaced ~52.6 ms; allow one of jitter.
        let most = max_in_window(&sent, Duration::from_secs(1));
        assert!(most <= 20, "{most} sends within one second (limit 20)");
        assert!(sent.len() >= 40, "only {} sends in 2.5 s at a pace of 19/s", sent.len());
    }

    async fn a_429_seen_by_one_pauses_the_others(fx: Fixture) {
        let key = account_key("paused");
        let ls = limiters(&fx, 3).await;
        ls[0].observe(&key, &limit(100)).await.unwrap();
        for l in &ls {
            l.acquire(&key).await.unwrap();
        }
        let seen = Instant::now();
        let mut info = RateLimitInfo::too_many_requests(Some(Duration::from_secs(1)));
        info.limit = Some(100);
        ls[0].observe(&key, &info).await.unwrap();
        for l in &ls[1..] {
            l.acquire(&key).await.unwrap();
            let after = seen.elapsed();
            assert!(after >= Duration::from_millis(950), "another instance sent {after:?} after the 429");
        }
        assert!(seen.elapsed() < Duration::from_millis(1500), "the pause outlasted Retry-After");
        // A 429 without Retry-After falls back to RateLimit-Reset.
        let mut info = RateLimitInfo::too_many_requests(None);
        info.reset = Some(Duration::from_secs(1));
        let seen = Instant::now();
        ls[1].observe(&key, &info).await.unwrap();
        ls[2].acquire(&key).await.unwrap();
        assert!(seen.elapsed() >= Duration::from_millis(950));
    }

    async fn headers_lower_and_raise_the_pace(fx: Fixture) {
        let key = account_key("paced");
        let ls = limiters(&fx, 2).await;
        // Instance 0 learns the limit; instance 1 sends and must follow it.
        for (limit_per_s, low, high) in [(40, 30, 40), (8, 6, 9), (40, 30, 40)] {
            ls[0].observe(&key, &limit(limit_per_s)).await.unwrap();
            ls[1].acquire(&key).await.unwrap();
            let sent = hammer(&ls[1..], &key, 4, Duration::from_secs(1)).await;
            assert!(
                (low..=high).contains(&sent.len()),
                "limit {limit_per_s}: {} sends in one second, expected {low}..={high}",
                sent.len()
            );
        }
        // A window from RateLimit-Policy: 10 per 2 s is 5 per second.
        let mut slow = limit(10);
        slow.window = Some(Duration::from_secs(2));
        ls[0].observe(&key, &slow).await.unwrap();
        ls[1].acquire(&key).await.unwrap();
        let sent = hammer(&ls[1..], &key, 4, Duration::from_secs(1)).await;
        assert!((3..=5).contains(&sent.len()), "{} sends at 5/s", sent.len());
    }

    async fn time_never_goes_backwards_with_concurrent_callers(fx: Fixture) {
        let key = account_key("clock");
        let interval = 10_000;
        let mut handles = Vec::new();
        for _ in 0..3 {
            let store = fx.store().await;
            let key = key.clone();
            handles.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                for _ in 0..15 {
                    mine.push(store.reserve(&key, interval, 0).await.unwrap().slot_us);
                }
                mine
            }));
        }
        let mut all = Vec::new();
        for h in handles {
            let mine = h.await.unwrap();
            assert!(mine.windows(2).all(|w| w[1] > w[0]), "one caller's slots went back: {mine:?}");
            all.extend(mine);
        }
        all.sort();
        for w in all.windows(2) {
            assert!(w[1] - w[0] >= interval, "slots {} and {} closer than the pace", w[0], w[1]);
        }
        // State left ahead of now (by a host whose clock runs fast) is kept, not rewound.
        // The tolerance counts the time the push and a new connection take on a busy host.
        let pushed = std::time::Instant::now();
        if fx.push_tat_forward(&key, 3_000_000).await.is_some() {
            let r = fx.store().await.reserve(&key, interval, 0).await.unwrap();
            let late = pushed.elapsed();
            assert!(r.wait + late >= Duration::from_millis(2900), "waited {:?} ({late:?} after the push)", r.wait);
            assert!(r.slot_us > *all.last().unwrap() + 2_900_000);
        }
    }
}

#[tokio::test]
async fn remaining_zero_with_a_long_reset_pauses_until_the_reset() {
    let limiter = RateLimiter::in_memory(RateLimitSettings::default());
    let key = account_key("window");
    let info = RateLimitInfo {
        status: 200,
        limit: Some(100),
        remaining: Some(0),
        reset: Some(Duration::from_secs(2)),
        ..RateLimitInfo::default()
    };
    let seen = Instant::now();
    limiter.observe(&key, &info).await.unwrap();
    limiter.acquire(&key).await.unwrap();
    assert!(seen.elapsed() >= Duration::from_millis(1950));
    // A one-second reset is left to the pace (its rounding would halve throughput).
    let other = account_key("short-window");
    let info = RateLimitInfo {
        reset: Some(Duration::from_secs(1)),
        ..info
    };
    limiter.observe(&other, &info).await.unwrap();
    let waited = limiter.acquire(&other).await.unwrap();
    assert!(waited < Duration::from_millis(200), "waited {waited:?}");
}

#[tokio::test]
async fn keys_are_independent() {
    let limiter = RateLimiter::in_memory(RateLimitSettings::default());
    let (a, b) = (account_key("a"), account_key("b"));
    limiter
        .observe(
            &a,
            &RateLimitInfo::too_many_requests(Some(Duration::from_secs(5))),
        )
        .await
        .unwrap();
    let waited = limiter.acquire(&b).await.unwrap();
    assert!(
        waited < Duration::from_millis(100),
        "key b waited {waited:?} for key a's pause"
    );
}

#[tokio::test]
async fn background_observation_pauses_this_process_at_once_and_the_others() {
    use searchdeck_common::ratelimit::SharedStore;
    let store = SharedStore::memory();
    let a = RateLimiter::new(store.clone(), RateLimitSettings::default());
    let b = RateLimiter::new(store, RateLimitSettings::default());
    let key = account_key("background");
    let seen = Instant::now();
    a.observe_in_background(
        &key,
        RateLimitInfo::too_many_requests(Some(Duration::from_secs(1))),
    );
    tokio::time::sleep(Duration::from_millis(20)).await;
    b.acquire(&key).await.unwrap();
    assert!(
        seen.elapsed() >= Duration::from_millis(950),
        "b sent during the pause"
    );
    let seen_a = Instant::now();
    let a2 = a.clone();
    a2.observe_in_background(
        &key,
        RateLimitInfo::too_many_requests(Some(Duration::from_secs(1))),
    );
    a.acquire(&key).await.unwrap();
    assert!(
        seen_a.elapsed() >= Duration::from_millis(950),
        "a sent during its own pause"
    );
}

/// A caller that wakes too late for its slot (here: the thread blocked over it, as a busy
/// machine does) gives the slot up and reserves another, so no two sends come closer than
/// the pace less `max_late`: a late send followed by one on time could make one too many
/// in the provider's window (the 429 the 1,000-rule benchmark once saw mid-run).
#[tokio::test(flavor = "current_thread")]
async fn a_caller_waking_late_gives_its_slot_up() {
    let settings = RateLimitSettings::default();
    let max_late = settings.max_late;
    let limiter = RateLimiter::in_memory(settings);
    let key = account_key("late");
    limiter.observe(&key, &limit(10)).await.unwrap();
    limiter.acquire(&key).await.unwrap();
    // 10/s at 95 %: one request every 105.3 ms.
    let interval = Duration::from_micros(105_264);
    let blocker = tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            std::thread::sleep(Duration::from_millis(80));
        }
    });
    let sent = hammer(
        std::slice::from_ref(&limiter),
        &key,
        3,
        Duration::from_millis(2500),
    )
    .await;
    blocker.abort();
    let closest = sent.windows(2).map(|w| w[1] - w[0]).min().unwrap();
    assert!(
        closest + max_late + Duration::from_millis(2) >= interval,
        "two sends {closest:?} apart at a pace of {interval:?}"
    );
    assert!(limiter.missed_slots() > 0, "no slot was given up");
    assert!(sent.len() >= 10, "only {} sends in 2.5 s", sent.len());
}
