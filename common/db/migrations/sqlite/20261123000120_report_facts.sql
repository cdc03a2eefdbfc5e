-- Running (prefix) sums of asa_day_metrics, what makes every report's date range exact and
-- fast (store::report_facts). For each (org_key, level, day) there is one row per entity
-- that has had any metrics on or before that day, holding the entity's counters summed over
-- every stored day up to and including `day`. A range [a, b] is then the slice at day b
-- minus the slice at day a - 1: two contiguous reads of the primary key, whatever the
-- range's length. `refresh` rewrites the rows from the first changed day on after a sync
-- replaced days. Entities are dense per day (a day without metrics repeats the previous
-- sums), so each slice is complete.
--
-- The old keyword-only fact table is superseded by asa_day_metrics and this table.
DROP TABLE keyword_day_metrics;

CREATE TABLE asa_day_sums (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    entity_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT NOT NULL,
    impressions BIGINT NOT NULL,
    taps BIGINT NOT NULL,
    tap_installs BIGINT NOT NULL,
    view_installs BIGINT NOT NULL,
    tap_new_downloads BIGINT NOT NULL,
    tap_redownloads BIGINT NOT NULL,
    view_new_downloads BIGINT NOT NULL,
    view_redownloads BIGINT NOT NULL,
    tap_pre_orders BIGINT NOT NULL,
    view_pre_orders BIGINT NOT NULL,
    spend_micros BIGINT NOT NULL,
    PRIMARY KEY (org_key, level, day, entity_id)
) WITHOUT ROWID;
