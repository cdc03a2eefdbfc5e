-- The keyword suggester's collections (docs/api/suggester.md, "Collection").
-- `suggester_results`: the keywords a finished collection found, kept with its task for
-- 24 h (spec §9; the clean-up job removes older ones). `items` is the JSON list of
-- `Keyword`s as the poll answers them; written once, in the transaction that finishes the
-- task, so a stopped or failed collection never has a row.
CREATE TABLE suggester_results (
    task_id TEXT PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    items TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX suggester_results_created ON suggester_results (created_at);

-- One row per finished collection (not stopped, not failed): its suggestion type,
-- country and wall time, for `GET /api/timings/{type}/{countryCode}` (the median of the
-- last 10). Installation-wide on purpose: the expected duration does not depend on who ran it.
CREATE TABLE suggester_runs (
    id TEXT PRIMARY KEY,
    suggestion_type TEXT NOT NULL,
    country TEXT NOT NULL,
    duration_ms BIGINT NOT NULL,
    finished_at BIGINT NOT NULL
);
CREATE INDEX suggester_runs_kind ON suggester_runs (suggestion_type, country, finished_at);

-- The step-1 form's remembered values per user and workspace (`GET /api/keyword/default`):
-- the negative keywords sent with the user's last collection, as a JSON list.
CREATE TABLE suggester_defaults (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    negative_keywords TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
