-- Runs of automated rules and goal optimisations (docs/api/rules.md "A run"). One row per
-- (rule, period): `rule_key` is the rule's id, or `optimization:<account>:<org>:<campaign>`
-- for a campaign's goal optimisation run as its built-in rule; `period` is the due time a
-- scheduled run is for (`2026-11-27T06:00:00Z`), `manual:<task id>` for "Run now" and
-- `undo:<run id>` for an undo, so a job run again finds its plan instead of making a second.
-- `body` is the rule as it was evaluated (schema-v1 JSON), `window_*` and
-- `newest_complete_day` the days it read. `status`: PLANNED, APPLYING, DONE, SKIPPED,
-- FAILED. `source` is the change records' source: auto_rules or goal_optimization.
CREATE TABLE rule_runs (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    rule_key TEXT NOT NULL,
    rule_id TEXT REFERENCES rules(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    source TEXT NOT NULL,
    rule_name TEXT NOT NULL,
    body TEXT NOT NULL,
    currency TEXT,
    trigger TEXT NOT NULL,
    period TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    window_start TEXT,
    window_end TEXT,
    newest_complete_day TEXT,
    matched BIGINT NOT NULL DEFAULT 0,
    applied BIGINT NOT NULL DEFAULT 0,
    refused BIGINT NOT NULL DEFAULT 0,
    skipped BIGINT NOT NULL DEFAULT 0,
    undo_of TEXT,
    undone_by TEXT,
    user_id TEXT,
    user_email TEXT,
    created_at BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    UNIQUE (rule_key, period)
);
CREATE INDEX rule_runs_rule ON rule_runs (rule_key, created_at);
CREATE INDEX rule_runs_workspace ON rule_runs (workspace_id, created_at);

-- One entity of a run and what the run does to it: the metric values that matched
-- (`vals`, JSON), the action, the field and its absolute old and new values (money as exact
-- decimals), `detail` (JSON: an added keyword's or negative's place and text, and its id
-- once created), and the result: PLANNED, APPLIED, REFUSED, SKIPPED, UNDONE.
CREATE TABLE rule_run_items (
    run_id TEXT NOT NULL REFERENCES rule_runs(id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    level TEXT NOT NULL,
    entity_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT,
    vals TEXT NOT NULL,
    action TEXT NOT NULL,
    field TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    detail TEXT,
    result TEXT NOT NULL,
    message TEXT,
    PRIMARY KEY (run_id, seq)
);
