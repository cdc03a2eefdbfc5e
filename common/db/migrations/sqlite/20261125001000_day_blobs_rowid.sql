-- asa_day_blobs becomes an ordinary table, its primary key a separate index. Stored WITHOUT
-- ROWID, each row (a blob of 1 to 3 MB for a large campaign group) lived in the primary
-- key's b-tree with its overflow pages, and SQLite's seeks there compare keys against whole
-- records: reading one blob, or only the stamps of a group's blobs, walked megabytes of
-- overflow pages (3 s for the stamps of a year of a 100,000-keyword group, 0.35 s per blob).
-- Now the key index holds the four key columns and a row id, and a row's stamp is read from
-- its first page (10 ms and under 10 ms). PostgreSQL, which keeps large values out of line
-- anyway, gets the same plain table so the two folders stay one schema. Stamps are kept:
-- caches of the decoded blobs stay valid.
CREATE TABLE asa_day_blobs_new (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    kind SMALLINT NOT NULL,
    stamp BIGINT NOT NULL DEFAULT 0,
    data BLOB NOT NULL,
    PRIMARY KEY (org_key, level, day, kind)
);

INSERT INTO asa_day_blobs_new (org_key, level, day, kind, stamp, data)
    SELECT org_key, level, day, kind, stamp, data FROM asa_day_blobs;

DROP TABLE asa_day_blobs;

ALTER TABLE asa_day_blobs_new RENAME TO asa_day_blobs;
