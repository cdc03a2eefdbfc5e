//! Writes that take effect exactly once under retries. A create whose answer is lost (a
//! 5xx or timeout after the server applied it) is ambiguous: before trying again,
//! [`AppleAds::create_once_json`](crate::AppleAds::create_once_json) looks the entity up by its natural key (a campaign's name, a keyword's
//! ad group + text + match type, …) and returns the existing one; a `DUPLICATE_*` refusal
//! resolves the same way, so a job retried after a crash does not create twice either.
//! Updates are idempotent as they set absolute values (status, bid, budget), and
//! [`AppleAds::delete`](crate::AppleAds::delete) counts "already deleted" as done.

/// How a create ended.
#[derive(Debug, Clone)]
pub enum Created<T> {
    /// This call created it.
    New(T),
    /// It existed already (an earlier attempt or job created it).
    Existing(T),
}

impl<T> Created<T> {
    /// The entity, however it came to exist.
    pub fn into_inner(self) -> T {
        match self {
            Created::New(t) | Created::Existing(t) => t,
        }
    }
}
