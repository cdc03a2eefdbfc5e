-- The keyword suggester's competitors (docs/api/suggester.md, "Apps and competitors"): per
-- workspace and app (`adam_id`, an App Store id), the App Store apps saved as its
-- competitors, with the store details shown in the pickers as they were when saved. Adam
-- ids are App Store ids, not our records: the workspace is what scopes a row. At most 10
-- per app (the API's rule); one row per (workspace, app, competitor).
CREATE TABLE competitors (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    adam_id BIGINT NOT NULL,
    competitor_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    developer TEXT,
    icon TEXT,
    genre TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, adam_id, competitor_id)
);
