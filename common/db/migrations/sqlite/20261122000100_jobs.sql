-- The transactional job outbox, emails sent by reference, cancellation of running tasks and
-- schedule entries kept in the database.

-- Jobs caused by a write, committed with it and relayed to the queue (the row id becomes
-- the job id; the row is deleted once the queue has the job).
CREATE TABLE job_outbox (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    task_id TEXT,
    payload TEXT NOT NULL,
    unique_key TEXT,
    run_after_ms BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX job_outbox_created ON job_outbox (created_at, id);

-- Emails waiting to be sent; the send-email job carries only the id and deletes the row
-- once the message is out.
CREATE TABLE emails (
    id TEXT PRIMARY KEY NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A stop asked for by the user; the running job sees it at its next check.
ALTER TABLE tasks ADD COLUMN cancel_requested_at BIGINT;

-- Periodic jobs beside the built-in ones (automated rules write rows here): every
-- `every_ms` milliseconds, or on a cron expression (seconds first, UTC).
CREATE TABLE schedules (
    key TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
    cron TEXT,
    every_ms BIGINT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    enabled BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CHECK ((cron IS NULL) <> (every_ms IS NULL))
);
CREATE INDEX schedules_enabled ON schedules (enabled);
