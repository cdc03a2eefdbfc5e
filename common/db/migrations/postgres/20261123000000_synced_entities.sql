-- What a sync keeps of an Apple Ads connection: one row per synced campaign group (v1 ad
-- account) with a small integer key (`org_key`) that every large synced table uses instead of
-- the connection's text id, the entities of each group, and their daily metrics.
--
-- Entities are keyed (org_key, Apple's id) and upserted by id; an entity the provider no
-- longer lists, or lists as deleted, keeps its row with `deleted = 1` so past metrics still
-- have a name. `body` holds the provider's JSON of the entity as last synced, for the fields
-- no column names. Money is in micros of the campaign group's currency.
--
-- Deleting a connection removes all of it: every table here cascades from `sync_orgs`, which
-- cascades from `accounts`.

CREATE TABLE sync_orgs (
    org_key BIGSERIAL PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    currency TEXT,
    time_zone TEXT,
    -- When the entities were last synced completely (unix seconds).
    entities_synced_at BIGINT,
    -- The newest and the oldest day whose metrics are stored (YYYY-MM-DD).
    metrics_through TEXT,
    metrics_from TEXT,
    -- When the metrics were last synced completely (unix seconds).
    metrics_synced_at BIGINT,
    UNIQUE (account_id, org_id)
);

CREATE TABLE asa_apps (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    adam_id BIGINT NOT NULL,
    app_name TEXT NOT NULL,
    developer_name TEXT,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, adam_id)
);

CREATE TABLE asa_campaigns (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    name TEXT NOT NULL,
    adam_id BIGINT,
    status TEXT NOT NULL,
    display_status TEXT,
    system_status TEXT,
    daily_budget_micros BIGINT,
    -- JSON list of country or region codes.
    countries TEXT,
    start_time TEXT,
    end_time TEXT,
    creation_time TEXT,
    modification_time TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    -- Hidden from the tables by the user (`asa/campaigns/mark-hidden`); not a provider field.
    hidden BIGINT NOT NULL DEFAULT 0,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);

CREATE TABLE asa_ad_groups (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    display_status TEXT,
    system_status TEXT,
    default_bid_micros BIGINT,
    cpa_goal_micros BIGINT,
    automated_keywords_opt_in BIGINT NOT NULL DEFAULT 0,
    start_time TEXT,
    end_time TEXT,
    modification_time TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);
CREATE INDEX asa_ad_groups_campaign ON asa_ad_groups (org_key, campaign_id);

CREATE TABLE asa_keywords (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    text TEXT NOT NULL,
    match_type TEXT NOT NULL,
    bid_micros BIGINT,
    status TEXT NOT NULL,
    display_status TEXT,
    modification_time TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);
CREATE INDEX asa_keywords_ad_group ON asa_keywords (org_key, ad_group_id);

-- Negative keywords of a campaign (ad_group_id NULL) or of an ad group.
CREATE TABLE asa_negative_keywords (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT,
    text TEXT NOT NULL,
    match_type TEXT NOT NULL,
    status TEXT NOT NULL,
    modification_time TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);
CREATE INDEX asa_negative_keywords_campaign ON asa_negative_keywords (org_key, campaign_id);

CREATE TABLE asa_ads (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    creative_id BIGINT,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    display_status TEXT,
    system_status TEXT,
    modification_time TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);
CREATE INDEX asa_ads_ad_group ON asa_ads (org_key, ad_group_id);

CREATE TABLE asa_creatives (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    name TEXT NOT NULL,
    creative_type TEXT,
    product_page_id TEXT,
    system_status TEXT,
    deleted BIGINT NOT NULL DEFAULT 0,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);

CREATE TABLE asa_product_pages (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id TEXT NOT NULL,
    adam_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    state TEXT,
    body TEXT,
    synced_at BIGINT NOT NULL,
    PRIMARY KEY (org_key, id)
);

-- Search terms have no provider id: `id` is a stable 63-bit hash of (ad group, keyword,
-- source, text), so a re-synced day finds the same term.
CREATE TABLE asa_search_terms (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    keyword_id BIGINT,
    text TEXT NOT NULL,
    -- AUTO (Search Match) or TARGETED.
    source TEXT NOT NULL,
    PRIMARY KEY (org_key, id)
);
CREATE INDEX asa_search_terms_ad_group ON asa_search_terms (org_key, ad_group_id);

-- Daily metrics of every level, as the provider reports them for the day in the campaign
-- group's time zone. `level`: 1 campaign, 2 ad group, 3 keyword, 4 search term, 5 ad;
-- `entity_id` is the id at that level (the campaign's for level 1). A re-fetched day
-- replaces that day's rows of the level.
CREATE TABLE asa_day_metrics (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    entity_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL DEFAULT 0,
    impressions BIGINT NOT NULL DEFAULT 0,
    taps BIGINT NOT NULL DEFAULT 0,
    tap_installs BIGINT NOT NULL DEFAULT 0,
    view_installs BIGINT NOT NULL DEFAULT 0,
    tap_new_downloads BIGINT NOT NULL DEFAULT 0,
    tap_redownloads BIGINT NOT NULL DEFAULT 0,
    view_new_downloads BIGINT NOT NULL DEFAULT 0,
    view_redownloads BIGINT NOT NULL DEFAULT 0,
    tap_pre_orders BIGINT NOT NULL DEFAULT 0,
    view_pre_orders BIGINT NOT NULL DEFAULT 0,
    spend_micros BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (org_key, level, day, entity_id)
);

-- Report tags of a workspace: a name and one of the spec's ten colours, for one table type
-- (CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS); names are unique per workspace and type.
CREATE TABLE tags (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (workspace_id, type, name)
);

-- Which synced entities carry a tag: the entity is (org_key, level, entity_id) with the
-- levels of asa_day_metrics (1 campaign, 2 ad group, 3 keyword, 4 search term).
CREATE TABLE tag_links (
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (tag_id, org_key, level, entity_id)
);
CREATE INDEX tag_links_entity ON tag_links (org_key, level, entity_id);
