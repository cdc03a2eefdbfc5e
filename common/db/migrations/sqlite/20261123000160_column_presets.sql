-- Column presets (spec §3 Column preset, §5 column preset rules): each user's saved column
-- choices per table type, in one workspace. The built-in Default preset of each type is not
-- stored (it comes from the report catalog). `name_key` is the trimmed, lower-cased name:
-- names are unique per user, workspace and type regardless of case.

CREATE TABLE column_presets (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('ACCOUNTS', 'ORGS', 'CAMPAIGNS', 'GROUPS', 'KEYWORDS', 'NEGATIVE', 'SEARCHTERMS', 'ADS')),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    -- The column keys in display order, as a JSON list.
    fields TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (workspace_id, user_id, type, name_key)
);

CREATE INDEX column_presets_owner ON column_presets (workspace_id, user_id, type, created_at);
