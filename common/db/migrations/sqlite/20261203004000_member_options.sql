-- Saved options per workspace (issue 26, docs/api/team.md "Options per workspace"): a user in
-- several workspaces keeps separate options in each (column and filter presets, the
-- suggester's entry, the reporting currency), as the active account already is. Personal
-- options (language, theme, onboarding-* flags) stay in user_options, one set per user.
-- A membership's options go with it (removal from a workspace deletes them).

CREATE TABLE member_options (
    workspace_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    -- JSON text.
    value TEXT NOT NULL,
    -- Unix milliseconds.
    updated_at BIGINT NOT NULL,
    -- The users.options_version of the save that wrote it.
    version BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, user_id, key),
    FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE
);

-- Existing options that are not personal are copied to every workspace of their user (so
-- each workspace starts with what the user had), then leave the per-user table.
INSERT INTO member_options (workspace_id, user_id, key, value, updated_at, version)
SELECT m.workspace_id, o.user_id, o.key, o.value, o.updated_at, o.version
FROM user_options o JOIN memberships m ON m.user_id = o.user_id
WHERE o.key NOT IN ('language', 'theme') AND o.key NOT LIKE 'onboarding-%';

DELETE FROM user_options WHERE key NOT IN ('language', 'theme') AND key NOT LIKE 'onboarding-%';

-- The workspace the user last switched to: sign-in opens it while they are still a member
-- there (else the workspace they joined first). No foreign key: a stale id is simply ignored.
ALTER TABLE users ADD COLUMN last_workspace_id TEXT;
