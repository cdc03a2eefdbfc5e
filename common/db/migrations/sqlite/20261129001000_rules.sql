-- Automated rules (docs/api/rules.md): a rule of a workspace acts in one campaign group
-- (connection `account_id`, org `org_id`) on the campaigns attached to it. The rule's
-- conditions, window, frequency, actions and guardrails are its schema-v1 JSON in `body`
-- (`searchdeck_common::rules::Rule`, read and written whole); the columns beside it are what
-- the list, the scheduler and the limits query. `enabled_at` is when the rule was created or
-- last enabled: the scheduler fires it first at its first due time after that.
CREATE TABLE rules (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    level TEXT NOT NULL,
    enabled BIGINT NOT NULL DEFAULT 1,
    body TEXT NOT NULL,
    created_by_user_id TEXT,
    created_by_email TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    enabled_at BIGINT NOT NULL
);
CREATE INDEX rules_workspace ON rules (workspace_id, created_at);
CREATE INDEX rules_enabled ON rules (enabled);

-- The campaigns a rule applies to (`rulesCampaigns`); `enabled` 0 turns the rule off for one
-- campaign without detaching it (`toggleRule`).
CREATE TABLE rule_campaigns (
    rule_id TEXT NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
    campaign_id BIGINT NOT NULL,
    enabled BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (rule_id, campaign_id)
);
CREATE INDEX rule_campaigns_campaign ON rule_campaigns (campaign_id);

-- Goal optimisation of a campaign (`optimization/*`): type CPA_GOAL or CPT_GOAL, the target
-- in micros of the campaign group's currency (null: the ad groups' CPA goals), and the largest
-- bid step per run in percent.
CREATE TABLE campaign_optimizations (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    type TEXT NOT NULL,
    target_micros BIGINT,
    max_step_percent BIGINT NOT NULL,
    created_by_email TEXT,
    enabled_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, account_id, org_id, campaign_id)
);

-- Alerts (`GET/DELETE /api/alerts`): raised by a rule's alert action, by a rule that paused
-- itself and by what the sync sees on a campaign (budget exhausted, ad group missing, paused
-- by Apple). `cause_key` names the cause: an alert is stored once per cause and workspace
-- (a rule run's alert `rule-run:<run id>`, a campaign's state `<kind>:<org>:<campaign>:<since>`).
-- Dismissing one (`DELETE`) sets `dismissed_at`; it stays for the cause's uniqueness.
CREATE TABLE alerts (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    cause_key TEXT NOT NULL,
    account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT,
    campaign_id BIGINT,
    rule_id TEXT,
    run_id TEXT,
    title TEXT NOT NULL,
    message TEXT NOT NULL,
    -- Recipients of the email, JSON list (empty: the workspace's owners and admins).
    emails TEXT NOT NULL DEFAULT '[]',
    email BIGINT NOT NULL DEFAULT 1,
    slack BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    dismissed_at BIGINT,
    UNIQUE (workspace_id, cause_key)
);
CREATE INDEX alerts_campaign ON alerts (workspace_id, campaign_id);
