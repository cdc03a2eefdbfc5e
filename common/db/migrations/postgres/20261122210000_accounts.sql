-- Apple Ads connections of a workspace (one per Apple Ads user), their campaign groups (v1
-- ad accounts, cached from the provider), each user's active connection and org, key pairs
-- waiting for `account/create`, and the single-use states of popup connects. Private keys
-- and tokens are stored sealed (SecretBox), never in clear.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    provider_user_id BIGINT NOT NULL,
    provider_org_id BIGINT,
    name TEXT NOT NULL,
    method TEXT NOT NULL CHECK (method IN ('key', 'oauth')),
    client_id TEXT NOT NULL,
    team_id TEXT,
    key_id TEXT,
    public_key TEXT,
    private_key_sealed TEXT,
    refresh_token_sealed TEXT,
    access_token_sealed TEXT,
    access_expires_at BIGINT,
    created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_synced_at BIGINT,
    UNIQUE (workspace_id, provider_user_id)
);

CREATE TABLE account_orgs (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    display_name TEXT NOT NULL,
    currency TEXT,
    time_zone TEXT,
    permission TEXT NOT NULL,
    selected BIGINT NOT NULL DEFAULT 1,
    refreshed_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, org_id)
);

CREATE TABLE active_accounts (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, workspace_id)
);

CREATE TABLE pending_keys (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    private_key_sealed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, workspace_id)
);

CREATE TABLE oauth_states (
    state_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    account_name TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);
