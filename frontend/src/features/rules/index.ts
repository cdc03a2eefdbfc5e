/**
 * The public face of the rules feature (automated rules, their runs, alerts). Its screens
 * are in `screens.ts`, which only the route table imports, lazily; the campaigns table shows
 * a campaign's alerts with `CampaignAlerts`, asked for its page by `useCampaignAlerts`, and
 * edits a campaign's goal optimisation and rules with `CampaignGoalEditor` and
 * `CampaignRulesEditor`.
 */
export { useCampaignAlerts, type Alert } from './api/alerts';
export { CampaignAlerts } from './components/CampaignAlerts';
export { CampaignGoalEditor, CampaignRulesEditor, type AutomationTarget } from './components/CampaignAutomation';
