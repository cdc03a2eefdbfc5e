-- Goal optimisation toward what the attributed installs earn (docs/api/rules.md "Goal
-- optimisation"): the types COST_PER_TRIAL_GOAL, COST_PER_PURCHASE_GOAL and ROAS_GOAL join
-- CPA_GOAL and CPT_GOAL in campaign_optimizations.type; a ROAS goal's target_micros holds
-- millionths of the percentage (120 % = 120000000) and cohort_days the cohort it is judged
-- on (0, 1, 3, 7, 14 or 30 days after the install), null for the other types.
ALTER TABLE campaign_optimizations ADD COLUMN cohort_days BIGINT;
