import { METRIC_NAMES } from '@/lib/report-catalog';
import { COUNTER_METRICS, isCounter, isMoneyMetric, isRatio, metricsAt } from './metrics';

describe('the metrics a rule takes (from the report catalog)', () => {
  it('lists the catalog’s metrics in its order, then popularity for keywords and search terms only', () => {
    expect(metricsAt('KEYWORDS')).toEqual([...METRIC_NAMES, 'popularity']);
    expect(metricsAt('SEARCHTERMS')).toEqual([...METRIC_NAMES, 'popularity']);
    expect(metricsAt('CAMPAIGNS')).toEqual(METRIC_NAMES);
    expect(metricsAt('ADGROUPS')).toEqual(METRIC_NAMES);
  });

  it('takes the counters for minimum data, in the order the guardrail lists them', () => {
    expect(COUNTER_METRICS).toEqual([
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
    ]);
    expect(isCounter('localSpend')).toBe(false);
  });

  it('knows money and ratios', () => {
    for (const m of ['localSpend', 'avgCPT', 'avgCPM', 'avgCPA', 'tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA']) expect(isMoneyMetric(m)).toBe(true);
    for (const m of ['ttr', 'conversionRate', 'tapConversionRate', 'totalConversionRate']) expect(isRatio(m)).toBe(true);
    expect(isRatio('IPM')).toBe(false);
    expect(isMoneyMetric('IPM')).toBe(false);
    expect(isMoneyMetric('popularity')).toBe(false);
  });
});
