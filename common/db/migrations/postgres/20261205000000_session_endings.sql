-- Why a session ended when its owner did not end it (issue 42 item 16): a member removed
-- from a workspace loses their sessions there at once; the next request of such a session
-- answers 401 with "You were removed from <workspace> by <name>" instead of a bare
-- "Unauthorized", so the web app can say so on the sign-in screen. Keyed by the ended
-- session's token hash; kept 30 days (rows older are deleted when new ones are written).
CREATE TABLE session_endings (
    token_hash TEXT PRIMARY KEY NOT NULL,
    workspace_name TEXT NOT NULL,
    removed_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
