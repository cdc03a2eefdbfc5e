import { conditionsText, conditionText, metricLabel, metricValueText } from './describe';

describe('a rule in words', () => {
  it('names the Conversions and Cohort metrics as the tables do', () => {
    expect(metricLabel('trackedInstalls')).toBe('Tracked installs');
    expect(metricLabel('costPerTrial')).toBe('Cost per trial');
    expect(metricLabel('roas')).toBe('ROAS');
    expect(metricLabel('roasD7')).toBe('ROAS D7');
    expect(metricLabel('revenueD7')).toBe('Revenue D7');
    // A cohort window the catalog gains before the copy does still reads.
    expect(metricLabel('roasD60')).toBe('ROAS D60');
    expect(metricLabel('cpaGoal')).toBe('CPA goal');
    expect(metricLabel('somethingNew')).toBe('somethingNew');
  });

  it('reads values as the metric shows: ROAS as a percentage, money in the currency, counts whole', () => {
    expect(metricValueText('roas', '0.625', 'USD')).toMatch(/^62\.5 ?%$/);
    expect(metricValueText('revenueD7', '2', 'USD')).toBe('$2.00');
    expect(metricValueText('trials', '1200', 'USD')).toBe('1 200');
  });

  it('says the conditions in one sentence', () => {
    const text = conditionsText(
      {
        operator: 'OR',
        groups: [
          {
            operator: 'AND',
            conditions: [
              { type: 'metric', metric: 'roas', operator: 'LESS_THAN', value: '0.8' },
              { type: 'metric', metric: 'revenueD7', operator: 'LESS_THAN', value: '2' },
            ],
          },
          { operator: 'AND', conditions: [{ type: 'compare', metric: 'costPerTrial', operator: 'GREATER_THAN', other: 'cpaGoal', coefficient: '1.5' }] },
        ],
      },
      'USD',
    );
    expect(text).toMatch(/^\(ROAS < 80 ?% and Revenue D7 < \$2\.00\) or Cost per trial > 1\.5 × CPA goal$/);
    expect(conditionText({ type: 'compare', metric: 'avgCPA', operator: 'GREATER_THAN', other: 'targetCpa', coefficient: '1' }, 'USD')).toBe('Avg CPA > Target CPA');
    expect(conditionText({ type: 'status', values: ['ACTIVE'] }, 'USD')).toBe('Status Active');
  });
});
