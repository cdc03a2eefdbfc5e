/** Query keys of the rules feature (rules, runs, alerts, the Slack webhook, pickers). */
export const ruleKeys = {
  all: ['rules'] as const,
  list: (accountId: string, orgId: string) => [...ruleKeys.all, 'list', accountId, orgId] as const,
  runs: (ruleId: string, page: number) => [...ruleKeys.all, 'runs', ruleId, page] as const,
  runsOf: (ruleId: string) => [...ruleKeys.all, 'runs', ruleId] as const,
  run: (runId: string) => [...ruleKeys.all, 'run', runId] as const,
  slack: () => [...ruleKeys.all, 'slack'] as const,
  campaigns: (accountId: string, orgId: string) => [...ruleKeys.all, 'campaigns', accountId, orgId] as const,
  adGroups: (accountId: string, orgId: string, campaignId: string) => [...ruleKeys.all, 'adGroups', accountId, orgId, campaignId] as const,
  alertsAll: ['alerts'] as const,
  alerts: (campaignIds: readonly string[]) => [...ruleKeys.alertsAll, ...campaignIds] as const,
};
