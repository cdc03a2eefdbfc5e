-- Apple's change history read by the sync (issue 25, docs/api/activity.md "Changes made
-- outside Searchdeck"): per campaign group (connection and Apple's org id), the latest event
-- time read and its transaction, so each sync reads on from there (the first one looks back
-- 30 days). The transactions themselves become notifications (`history:<account>:<org>:<txn>`)
-- with their changes in `change_records`.

CREATE TABLE change_history_marks (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    org_id BIGINT NOT NULL,
    -- The latest event time read (unix milliseconds) and its transaction.
    event_time_ms BIGINT NOT NULL,
    transaction_id TEXT,
    -- When the history was last read (unix milliseconds).
    read_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, org_id)
);
