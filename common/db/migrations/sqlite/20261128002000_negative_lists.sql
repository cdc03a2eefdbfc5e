-- Negative keyword lists (spec §7 `list/*`, docs/api/creation.md "Negative keyword lists"):
-- named lists of negative keywords of a workspace, applied to campaigns or ad groups as real
-- negatives at Apple by the `apply-negative-lists` job. Apple has no shared lists: these
-- are ours. A list's name is unique in its workspace, compared trimmed and case-insensitively
-- (`name_key`).
CREATE TABLE negative_lists (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    -- The last apply job's task, if any.
    task_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (workspace_id, name_key)
);

-- The terms of a list: text as spec §5 cleans it, match type EXACT or BROAD.
CREATE TABLE negative_list_keywords (
    list_id TEXT NOT NULL REFERENCES negative_lists(id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    text TEXT NOT NULL,
    match_type TEXT NOT NULL,
    PRIMARY KEY (list_id, match_type, text)
);

-- Where a list is applied: a campaign (ad_group_id 0) or an ad group of a campaign group
-- reached through a connection of the workspace. The names are as the user picked them.
CREATE TABLE negative_list_places (
    list_id TEXT NOT NULL REFERENCES negative_lists(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    campaign_name TEXT NOT NULL,
    ad_group_name TEXT,
    position BIGINT NOT NULL,
    PRIMARY KEY (list_id, account_id, org_id, campaign_id, ad_group_id)
);
CREATE INDEX negative_list_places_place ON negative_list_places (account_id, org_id, campaign_id, ad_group_id);

-- The negatives the lists made at each place (text lower-cased, match type), recorded before
-- the create is sent: removing a term or a place deletes only what a list made, never a
-- negative the user added by hand or one that was there before a list held it, and a worker
-- that dies between Apple's answer and our write still knows what it made.
CREATE TABLE negative_list_made (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    text TEXT NOT NULL,
    match_type TEXT NOT NULL,
    PRIMARY KEY (account_id, org_id, campaign_id, ad_group_id, match_type, text)
);
