-- When a connection's last sync was given up (unix ms; null: none was): a `sync-account` or
-- `sync-reports` job whose attempts were spent on provider errors, or that the provider
-- refused. Newer than `last_synced_at`, it means the provider has trouble delivering the
-- connection's data (the appleDataIssues banner, docs/api/plans.md "Banners").
ALTER TABLE accounts ADD COLUMN sync_failed_at BIGINT;
