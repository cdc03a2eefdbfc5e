-- What the campaign-creation jobs (`create-campaigns`, `copy-campaigns`) have made at Apple,
-- one row per entity or finished step, keyed by the job and the entity's natural key
-- (`c:<campaign name>`, `g:<campaign id>:<ad group name>`, `k:<ad group id>` for an ad
-- group's keywords sent, …; `store::creation`). `provider_id` is Apple's id (0 for a step
-- marker); `detail` holds what a restarted job needs to report again (the items Apple
-- refused in a bulk call, as JSON). A job killed or retried skips every recorded key, so
-- each entity is created once. Rows are kept with their task (30 days, like tasks).
CREATE TABLE creation_entities (
    job_id TEXT NOT NULL,
    natural_key TEXT NOT NULL,
    provider_id BIGINT NOT NULL,
    detail TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (job_id, natural_key)
);
