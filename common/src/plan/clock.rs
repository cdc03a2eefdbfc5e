//! The plan's test clock: a per-workspace offset added to the clock `GET /api/plan/current`
//! reads (the plan, trial, banner and modal), so a browser test can see a trial's last
//! 72 hours and its end without waiting two weeks (docs/api/plans.md "Test clock",
//! docs/operations.md). It exists only beside the local Apple Ads sandbox: with any
//! `PROVIDER_BASE_URL` configured (Apple's API, or a proxy in front of it) it is off and
//! its route answers 404, so production can never shift a plan. Offsets live in the web process's
//! memory (one process in `searchdeck serve`), per workspace, so tests sharing a server do
//! not see each other's; a restart forgets them.

use std::{collections::HashMap, sync::Mutex};

use crate::{Config, ids::now_ms};

/// The offsets of the workspaces that moved their plan's clock.
#[derive(Debug, Default)]
pub struct PlanClock {
    enabled: bool,
    offsets: Mutex<HashMap<String, i64>>,
}

/// The largest offset either way: 400 days (past a trial's end and its 30-day modals).
pub const MAX_OFFSET_MS: i64 = 400 * 24 * 3_600_000;

impl PlanClock {
    /// On only when the provider is the sandbox `searchdeck serve` runs beside the app (no
    /// `PROVIDER_BASE_URL`, so the base is the sandbox's own address): Apple's API, or any
    /// other address (a proxy in front of Apple), leaves it off.
    pub fn new(config: &Config) -> PlanClock {
        PlanClock {
            enabled: config.provider_base_url == format!("http://{}", config.sandbox_bind),
            offsets: Mutex::default(),
        }
    }

    /// Whether offsets may be set (the local sandbox is the provider).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The plan's clock of `workspace_id` (ms): now, moved by its offset.
    pub fn now(&self, workspace_id: &str) -> i64 {
        now_ms() + self.offset(workspace_id)
    }

    /// The offset of `workspace_id` (ms; 0 when not moved or when off).
    pub fn offset(&self, workspace_id: &str) -> i64 {
        if !self.enabled {
            return 0;
        }
        self.offsets
            .lock()
            .map_or(0, |o| o.get(workspace_id).copied().unwrap_or(0))
    }

    /// Moves the plan's clock of `workspace_id` by `offset_ms` from now (0 puts it back);
    /// false when off.
    pub fn set(&self, workspace_id: &str, offset_ms: i64) -> bool {
        if !self.enabled {
            return false;
        }
        let Ok(mut offsets) = self.offsets.lock() else {
            return false;
        };
        if offset_ms == 0 {
            offsets.remove(workspace_id);
        } else {
            offsets.insert(workspace_id.to_string(), offset_ms);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(enabled: bool) -> PlanClock {
        PlanClock {
            enabled,
            offsets: Mutex::default(),
        }
    }

    #[test]
    fn offsets_are_per_workspace_and_off_beside_apple() {
        let on = clock(true);
        assert!(on.set("w1", 5_000));
        assert_eq!((on.offset("w1"), on.offset("w2")), (5_000, 0));
        assert!(on.now("w1") - now_ms() >= 4_000);
        assert!(on.set("w1", 0));
        assert_eq!(on.offset("w1"), 0);
        let off = clock(false);
        assert!(!off.set("w1", 5_000));
        assert_eq!(off.offset("w1"), 0);
    }
}
