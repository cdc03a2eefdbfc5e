import { CONVERSION_METRICS, METRIC_NAMES } from '@/lib/report-catalog';
import { cohortDays, CONVERSION_RULE_METRICS, COUNTER_METRICS, countersAt, isConversionCount, isCounter, isMoneyMetric, isRatio, metricGroupOf, metricsAt, othersAt } from './metrics';

const APPLE_COUNTERS = [
  'impressions',
  'taps',
  'installs',
  'newDownloads',
  'redownloads',
  'tapInstalls',
  'viewInstalls',
  'totalInstalls',
  'tapNewDownloads',
  'viewNewDownloads',
  'totalNewDownloads',
  'tapRedownloads',
  'viewRedownloads',
  'totalRedownloads',
];

describe('the metrics a rule takes (from the report catalog)', () => {
  it('lists the catalog’s metrics in its order, popularity for keywords and search terms, conversions but at search terms', () => {
    const conversions = CONVERSION_METRICS.map((m) => m.name);
    expect(metricsAt('KEYWORDS')).toEqual([...METRIC_NAMES, 'popularity', ...conversions]);
    expect(metricsAt('SEARCHTERMS')).toEqual([...METRIC_NAMES, 'popularity']);
    expect(metricsAt('CAMPAIGNS')).toEqual([...METRIC_NAMES, ...conversions]);
    expect(metricsAt('ADGROUPS')).toEqual([...METRIC_NAMES, ...conversions]);
    expect(othersAt('SEARCHTERMS')).not.toContain('roas');
    expect(othersAt('KEYWORDS')).toEqual(expect.arrayContaining(['bid', 'cpaGoal', 'roas', 'revenueD7']));
  });

  it('takes every Conversions and Cohort column of the catalog, so a new one (ROAS D7) needs no change here', () => {
    expect(CONVERSION_RULE_METRICS).toEqual(CONVERSION_METRICS.map((m) => m.name));
    for (const m of CONVERSION_METRICS) {
      expect(isRatio(m.name)).toBe(m.display === 'percent');
      expect(isMoneyMetric(m.name)).toBe(m.display === 'money');
      expect(isConversionCount(m.name)).toBe(m.display === 'count');
      expect(metricGroupOf(m.name)).toBe(m.group);
    }
    expect(metricGroupOf('taps')).toBe('Metrics');
  });

  it('takes the counters for minimum data, in the order the guardrail lists them, conversions counts where the level has them', () => {
    expect(COUNTER_METRICS).toEqual([...APPLE_COUNTERS, 'trackedInstalls', 'trials', 'purchases']);
    expect(countersAt('KEYWORDS')).toEqual([...APPLE_COUNTERS, 'trackedInstalls', 'trials', 'purchases']);
    expect(countersAt('SEARCHTERMS')).toEqual(APPLE_COUNTERS);
    expect(isCounter('localSpend')).toBe(false);
    expect(isCounter('totalRevenue')).toBe(false);
  });

  it('knows money and ratios', () => {
    for (const m of ['localSpend', 'avgCPT', 'avgCPM', 'avgCPA', 'tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA', 'costPerTrial', 'totalRevenue', 'arpu', 'revenueD7']) expect(isMoneyMetric(m)).toBe(true);
    for (const m of ['ttr', 'conversionRate', 'tapConversionRate', 'totalConversionRate', 'roas', 'trackedInstallRate']) expect(isRatio(m)).toBe(true);
    expect(isRatio('IPM')).toBe(false);
    expect(isMoneyMetric('IPM')).toBe(false);
    expect(isMoneyMetric('popularity')).toBe(false);
  });

  it('reads a Cohort metric’s age from its name', () => {
    expect(cohortDays('revenueD0')).toBe(0);
    expect(cohortDays('revenueD7')).toBe(7);
    expect(cohortDays('revenueD30')).toBe(30);
    expect(cohortDays('roas')).toBeNull();
    expect(cohortDays('taps')).toBeNull();
  });
});
