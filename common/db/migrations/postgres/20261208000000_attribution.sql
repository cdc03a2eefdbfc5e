-- Revenue and attribution (issue 44; docs/api/attribution.md): what installs earn, as the
-- workspace's attribution providers (MMPs), RevenueCat or its own tracking server report it.
--
-- `attribution_integrations`: one per workspace and provider. Postbacks reach
-- `/api/attribution/postbacks/{provider}/{token}`; the token is shown once and stored hashed
-- (SHA-256 hex, as session tokens), with its last four characters to recognise it. The
-- custom server also signs its requests with a secret, stored sealed.
CREATE TABLE attribution_integrations (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_hint TEXT NOT NULL,
    secret_sealed TEXT,
    created_by TEXT,
    created_at BIGINT NOT NULL,
    rotated_at BIGINT,
    -- When the newest event was received (unix ms), and test events sent from the screen.
    last_event_at BIGINT,
    UNIQUE (workspace_id, provider)
);

-- Every attributed event as its adapter read it, once per (provider, dedupe id): a replay is
-- not stored again. An in-app event without its own campaign ids takes its install's (same
-- provider and device). `install_day` is the install's day in its campaign group's time zone
-- (UTC while the campaign is not synced): the cohort the reports sum by. Money in micros of
-- `currency`, negative for refunds.
CREATE TABLE attribution_events (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    dedupe_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    event_name TEXT NOT NULL,
    adam_id BIGINT,
    org_id BIGINT,
    campaign_id BIGINT,
    ad_group_id BIGINT,
    keyword_id BIGINT,
    ad_id BIGINT,
    claim_type TEXT,
    conversion_type TEXT,
    placement TEXT,
    country TEXT,
    revenue_micros BIGINT,
    currency TEXT,
    event_at BIGINT NOT NULL,
    install_at BIGINT NOT NULL,
    install_day TEXT NOT NULL,
    device_id TEXT,
    test BIGINT NOT NULL DEFAULT 0,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, provider, dedupe_id)
);
CREATE INDEX attribution_events_received ON attribution_events (workspace_id, provider, received_at);
CREATE INDEX attribution_events_device ON attribution_events (workspace_id, provider, device_id, kind);

-- The events summed as the reports read them: per level (the report facts' level codes:
-- campaign, ad group, keyword, ad), entity, install day (the cohort), provider and app (0
-- when not named) with the event name (what the name counts as is the user's setting, read
-- when the report runs), the days from install to event (0–30; 31 for later), claim type
-- and placement ('' when the provider did not say) and currency ('' without revenue).
CREATE TABLE attribution_facts (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    level BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    install_day TEXT NOT NULL,
    provider TEXT NOT NULL,
    adam_id BIGINT NOT NULL,
    event_name TEXT NOT NULL,
    age_days BIGINT NOT NULL,
    claim_type TEXT NOT NULL,
    placement TEXT NOT NULL,
    currency TEXT NOT NULL,
    events BIGINT NOT NULL,
    revenue_micros BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, level, entity_id, install_day, provider, adam_id, event_name, age_days, claim_type, placement, currency)
);

-- The event names seen per provider and app (0: the provider did not name the app), and
-- what each counts as in the reports: a trial, a purchase (a paying user), revenue. Set by
-- the first event from the name (trial-like names count as trials, purchase-like ones as
-- purchases, an event with revenue as revenue) and changed by the user.
CREATE TABLE attribution_event_names (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    adam_id BIGINT NOT NULL,
    event_name TEXT NOT NULL,
    is_trial BIGINT NOT NULL DEFAULT 0,
    is_purchase BIGINT NOT NULL DEFAULT 0,
    is_revenue BIGINT NOT NULL DEFAULT 0,
    events BIGINT NOT NULL DEFAULT 0,
    first_seen_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, provider, adam_id, event_name)
);
