-- Day blobs are written in generations, so that a report never mixes blobs from before and
-- after a refresh (store::report_facts, "Generations"):
--   asa_blob_generations: per (org, level), the generation readers see (`generation`) and
--     the newest generation whose replaced blobs have been deleted (`swept`: a reader that
--     took an older generation may have missed blobs and reads again).
--   asa_day_blobs.generation: the refresh that wrote the blob; retired_in: the refresh that
--     replaced or removed it (NULL while current). A reader of generation g sees the blobs
--     with generation <= g that were not retired in a generation <= g.
-- Blobs already stored become generation 0, the generation of an org without a row in
-- asa_blob_generations. The blob table is rebuilt so its key includes the generation and
-- `data` stays the last column (SQLite reads a column after a large blob by walking its
-- overflow pages); PostgreSQL gets the same table. The key is named, so the temporary
-- table's name does not stay in PostgreSQL's index names.
CREATE TABLE asa_blob_generations (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    generation BIGINT NOT NULL DEFAULT 0,
    swept BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (org_key, level)
);

CREATE TABLE asa_day_blobs_gen (
    org_key BIGINT NOT NULL REFERENCES sync_orgs(org_key) ON DELETE CASCADE,
    level SMALLINT NOT NULL,
    day DATE NOT NULL,
    kind SMALLINT NOT NULL,
    generation BIGINT NOT NULL DEFAULT 0,
    retired_in BIGINT,
    stamp BIGINT NOT NULL DEFAULT 0,
    data BYTEA NOT NULL,
    CONSTRAINT asa_day_blobs_key PRIMARY KEY (org_key, level, day, kind, generation)
);

INSERT INTO asa_day_blobs_gen (org_key, level, day, kind, generation, retired_in, stamp, data)
    SELECT org_key, level, day, kind, 0, NULL, stamp, data FROM asa_day_blobs;

DROP TABLE asa_day_blobs;

ALTER TABLE asa_day_blobs_gen RENAME TO asa_day_blobs;
