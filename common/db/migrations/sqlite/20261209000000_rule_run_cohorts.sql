-- Rules on what installs earn (issue 44; docs/api/rules.md "Conversions and cohorts"): a
-- run of a rule naming a Cohort metric (`roasD7`, `revenueD7`) records which installs it
-- judged each on, JSON `[{"metric": "roasD7", "ageDays": 7, "from": "2026-11-01",
-- "through": "2026-11-22"}]`: the window's install days old enough for that cohort.
ALTER TABLE rule_runs ADD COLUMN cohorts TEXT;

-- A report's or a rule's conversions over a range of install days of every entity of a
-- level (the totals of a KEYWORDS report over 100,000 keywords) read the range's days
-- alone, not every day of every entity as the primary key's order would.
CREATE INDEX attribution_facts_by_day ON attribution_facts (workspace_id, level, install_day);
