-- A connection's periodic sync lives in `schedules` under the key `sync:<account id>`
-- (written on connect, see store::synced::set_schedule) and names its connection here, so
-- deleting the connection, directly or with its workspace, removes the entry.
ALTER TABLE schedules ADD COLUMN account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE;

-- The sync-reports job that last stored a group's metrics: a job run again after its worker
-- died skips the groups it already finished (same rows as an uninterrupted run).
ALTER TABLE sync_orgs ADD COLUMN metrics_job TEXT;
