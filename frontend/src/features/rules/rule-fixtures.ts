/** Test data of the rules feature shaped like the server's answers (docs/api/rules.md). */

/** A stored rule as `GET rules/all` answers it (docs/api/rules.md "A rule"). */
export function storedRule(overrides: Record<string, unknown> = {}) {
  return {
    id: 'r1',
    version: 1,
    name: 'Pause keywords that spend without installs',
    enabled: true,
    accountId: 'a1',
    orgId: '42',
    currency: 'USD',
    level: 'KEYWORDS',
    campaignIds: ['1870001', '1870002'],
    conditions: {
      operator: 'AND',
      groups: [
        {
          operator: 'AND',
          conditions: [
            { type: 'metric', metric: 'localSpend', operator: 'GREATER_THAN', value: '20' },
            { type: 'metric', metric: 'installs', operator: 'EQUALS', value: '0' },
          ],
        },
        {
          operator: 'OR',
          conditions: [
            { type: 'compare', metric: 'avgCPA', operator: 'GREATER_THAN', other: 'cpaGoal', coefficient: '1.5' },
            { type: 'status', values: ['ACTIVE'] },
          ],
        },
      ],
    },
    window: { type: 'last', days: 7, excludeToday: true },
    frequency: { type: 'daily', hour: 6 },
    actions: [{ type: 'pause' }, { type: 'alert', channels: ['EMAIL', 'SLACK'], emails: [] }],
    guardrails: { minBid: '0.10', maxBid: '5.00', minBudget: null, maxBudget: null, maxChangePercent: '50', maxEntities: 500, minData: [{ metric: 'taps', value: '10' }] },
    createdBy: 'ann@example.com',
    createdAt: 1764200000,
    updatedAt: 1764200000,
    lastRun: { id: 'run1', at: 1764222000, status: 'DONE', matched: 12, applied: 11, refused: 0, skipped: 1 },
    ...overrides,
  };
}
