-- Runs per logical job (the queue envelope's id): counted at the start of every run, so
-- retries and runs lost to crashed workers all spend an attempt and the cap holds on every
-- queue backend. Rate-limit snoozes give their attempt back.
CREATE TABLE job_runs (
    job_id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    runs BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX job_runs_updated ON job_runs (updated_at);
