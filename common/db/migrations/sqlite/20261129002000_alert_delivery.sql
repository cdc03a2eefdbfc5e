-- Alert delivery (docs/api/rules.md "Alerts"): the workspace's Slack incoming-webhook URL,
-- sealed like a connection's secrets (`secrets::SecretBox`, context `slack:<workspace>`),
-- set by a manager through `PUT /api/alerts/slack`; and, on each alert, when the
-- `deliver-alert` job queued its emails and posted it to Slack, so a job that runs again
-- (a retry after Slack failed) sends neither twice.
CREATE TABLE workspace_slack (
    workspace_id TEXT PRIMARY KEY NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    url_sealed TEXT NOT NULL,
    updated_by_email TEXT,
    updated_at BIGINT NOT NULL
);

ALTER TABLE alerts ADD COLUMN emailed_at BIGINT;
ALTER TABLE alerts ADD COLUMN slack_sent_at BIGINT;
