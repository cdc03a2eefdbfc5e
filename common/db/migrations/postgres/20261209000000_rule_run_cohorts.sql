-- Rules on what installs earn (issue 44; docs/api/rules.md "Conversions and cohorts"): a
-- run of a rule naming a Cohort metric (`roasD7`, `revenueD7`) records which installs it
-- judged each on, JSON `[{"metric": "roasD7", "ageDays": 7, "from": "2026-11-01",
-- "through": "2026-11-22"}]`: the window's install days old enough for that cohort.
ALTER TABLE rule_runs ADD COLUMN cohorts TEXT;
