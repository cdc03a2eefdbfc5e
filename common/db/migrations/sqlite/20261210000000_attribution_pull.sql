-- Pull connectors (issue 44, docs/api/attribution.md "Pull"): the reporting APIs of AppsFlyer,
-- Adjust and Singular read with the user's API token.
--
-- `attribution_pulls`: one per workspace and connected provider. The API token is stored
-- sealed (the secrets key, context `attribution-pull:<workspace>:<provider>`) with its last
-- four characters to recognise it; `settings` is the provider's JSON (app ids, currency,
-- event names). The last successful pull and the last error (in the user's words) are what
-- the integration screen shows. Disconnecting the provider removes its pull.
CREATE TABLE attribution_pulls (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    token_sealed TEXT NOT NULL,
    token_hint TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_by TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_success_at BIGINT,
    last_error TEXT,
    last_error_at BIGINT,
    PRIMARY KEY (workspace_id, provider),
    FOREIGN KEY (workspace_id, provider)
        REFERENCES attribution_integrations (workspace_id, provider) ON DELETE CASCADE
);

-- The install days whose facts of a provider come from its reporting API: a pull replaces
-- every fact of (provider, install day) in one transaction and records the day here; from
-- then on a postback of that provider for that install day is stored as an event but added
-- to no fact, so a day is never counted twice (docs/api/attribution.md "Pull and push").
CREATE TABLE attribution_pulled_days (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    install_day TEXT NOT NULL,
    pulled_at BIGINT NOT NULL,
    installs BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, provider, install_day)
);
