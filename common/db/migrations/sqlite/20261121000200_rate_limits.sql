-- Shared rate-limit state per key (an ad account or a credential) when no Redis is configured.
-- Times are microseconds on the database's clock: tat_us is the GCRA theoretical arrival time
-- (never moves backwards), slot_us the last slot granted, paused_until_us the end of a pause
-- set by a 429; interval_us is the learned pace (NULL until a response has taught one).
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    tat_us BIGINT NOT NULL DEFAULT 0,
    slot_us BIGINT NOT NULL DEFAULT 0,
    paused_until_us BIGINT NOT NULL DEFAULT 0,
    interval_us BIGINT,
    updated_at BIGINT NOT NULL
);
