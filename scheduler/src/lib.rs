//! The scheduler role: enqueues periodic work; it never does the work itself.
