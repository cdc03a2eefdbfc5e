-- What a task works on, for requests that join a running task instead of starting a second
-- one (issue 43: two 'Run now' clicks on one rule are one run): `rule:<rule id>` for a rule's
-- runs. At most one unfinished task per subject; a finished task lets the subject go.
ALTER TABLE tasks ADD COLUMN subject TEXT;
CREATE UNIQUE INDEX tasks_running_subject ON tasks (subject) WHERE finish = 0 AND subject IS NOT NULL;
