//! Worker names: unique per process, readable in the queue's worker table.

use rand::Rng;

/// `<host>-<pid>-<random>`: the host and pid say where a worker runs; the random suffix
/// keeps names unique across restarts of a worker inside one process and pid reuse.
pub fn worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    let suffix: u32 = rand::rng().random();
    format!("{host}-{}-{suffix:08x}", std::process::id())
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_carry_the_pid_and_differ_within_a_process() {
        let a = super::worker_name();
        let b = super::worker_name();
        assert_ne!(a, b);
        assert!(a.contains(&format!("-{}-", std::process::id())), "{a}");
    }
}
