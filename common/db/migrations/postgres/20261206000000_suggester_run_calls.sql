-- The provider calls each finished collection made, beside its wall time: the installation's
-- measured time per call gives the first estimate of a type and country no collection has
-- run yet (`GET /api/timings/{type}/{countryCode}`). Null for the runs recorded before.
ALTER TABLE suggester_runs ADD COLUMN calls BIGINT;
