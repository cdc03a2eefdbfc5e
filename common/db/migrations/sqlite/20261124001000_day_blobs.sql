-- Day blobs replace the running sums of asa_day_sums (store::report_facts). That table held
-- one row per entity per day (every entity with metrics so far, each day), so it grew with
-- entities × days and a restated day rewrote every later row. A blob packs the entities of
-- one (org_key, level) and day (sorted ids, delta varints, zigzag counters):
--   kind 1, daily: that day's non-zero rows of asa_day_metrics;
--   kind 2, checkpoint: every 16th day and the last stored day, every entity's counters
--   summed from the first stored day through that day.
-- A range [a, b] is a checkpoint near b minus one near a - 1, corrected by the few daily
-- blobs between them and the range's ends. asa_day_metrics stays the source of truth:
-- the next sync of each campaign group builds its blobs from the first raw day (refresh
-- finds none stored), and reports read no sums until then.
DROP TABLE asa_day_sums;

CREATE TABLE asa_day_blobs (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    kind SMALLINT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (org_key, level, day, kind)
) WITHOUT ROWID;
