-- Team invitations (issue 26, docs/api/team.md): an owner or admin invites an email address
-- to the workspace with a role. The code is emailed and stored only as its SHA-256 (as
-- session tokens), single use, expiring 7 days after it was made. A newer invitation for the
-- same email replaces the pending one; accepting one adds the membership.

CREATE TABLE team_invitations (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    -- The invited address, normalised as at sign-up.
    email TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'writer', 'reader')),
    code_hash TEXT NOT NULL UNIQUE,
    -- Who invited (NULL once that user is gone).
    invited_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    -- Unix milliseconds.
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    -- When and by whom it was accepted.
    used_at BIGINT,
    used_by TEXT REFERENCES users(id) ON DELETE SET NULL
);

-- A workspace's invitations, and its pending one for an email.
CREATE INDEX team_invitations_workspace ON team_invitations (workspace_id, email);
