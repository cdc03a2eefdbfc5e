-- Benchmarks (issue 44; docs/api/benchmarks.md): the targets a workspace sets per app
-- (App Store id) and storefront — cost per install (`installs`), cost per event of a named
-- MMP event (`events`) and ROAS per cohort window (`revenues`) — that the screens show beside
-- published reference figures. One row per target: `country` '' is the "all countries" row,
-- `event_name` is '' except for `events`, `cohort` ('roasD0' … 'roasD30') is '' except for
-- `revenues`. Money targets are micros of `currency` (the app's campaign group's); a ROAS
-- target is micros of the ratio revenue ÷ spend (1.2 = 1200000) with no currency.
CREATE TABLE benchmarks (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    adam_id BIGINT NOT NULL,
    event_name TEXT NOT NULL DEFAULT '',
    cohort TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    value_micros BIGINT NOT NULL,
    currency TEXT,
    updated_at BIGINT NOT NULL,
    updated_by TEXT,
    PRIMARY KEY (workspace_id, kind, adam_id, event_name, cohort, country)
);

-- The App Store's primary genre of an app (a public fact, shared by every workspace), as the
-- benchmarks last looked it up: which category's reference figures apply. `genre` NULL: the
-- App Store did not know the app.
CREATE TABLE app_genres (
    adam_id BIGINT PRIMARY KEY,
    genre TEXT,
    checked_at BIGINT NOT NULL
);
