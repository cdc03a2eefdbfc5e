-- What lets each API process keep report inputs in memory and know when they are stale
-- (store::report_facts::cache):
--   sync_orgs.entities_version: a random number every writer of a group's synced entities
--     sets anew (0: never cached); the row universe of a report is cached under it.
--   asa_day_blobs.stamp: a random number written with each blob (0: never cached); a
--     decoded blob is cached under it.
-- The blob table is rebuilt so that `stamp` sits before `data`: reading the stamps of a
-- group's blobs then never walks a blob's overflow pages.
ALTER TABLE sync_orgs ADD COLUMN entities_version BIGINT NOT NULL DEFAULT 0;

CREATE TABLE asa_day_blobs_new (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    kind SMALLINT NOT NULL,
    stamp BIGINT NOT NULL DEFAULT 0,
    data BLOB NOT NULL,
    PRIMARY KEY (org_key, level, day, kind)
) WITHOUT ROWID;

INSERT INTO asa_day_blobs_new (org_key, level, day, kind, stamp, data)
    SELECT org_key, level, day, kind, 0, data FROM asa_day_blobs;

DROP TABLE asa_day_blobs;

ALTER TABLE asa_day_blobs_new RENAME TO asa_day_blobs;
