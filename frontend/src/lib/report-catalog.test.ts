import json from '@/api/report-catalog.json';
import { catalogPartsSchema, COHORT_COLUMNS, columnDisplay, COMMON_METRICS, CONVERSION_METRICS, conversionGroupOf, COUNTER_METRICS, GRAPH_METRICS, HIDDEN_BY_DEFAULT, METRIC_NAMES, metricDisplay, metricsShownAs } from './report-catalog';

describe('the report catalog', () => {
  it('reads the file the server writes', () => {
    expect(catalogPartsSchema.safeParse(json).success).toBe(true);
    expect(HIDDEN_BY_DEFAULT.slice(0, 5)).toEqual(['rules', 'totalRevenue', 'trackedInstalls', 'organicSearch', 'auctionInsights']);
    // Every Conversions and Cohort column, the cohort ROAS included, is hidden until a column preset shows it.
    for (const { name } of CONVERSION_METRICS) expect(HIDDEN_BY_DEFAULT).toContain(name);
  });

  it('reads the Conversions and Cohort columns with how each shows', () => {
    expect(CONVERSION_METRICS.filter((m) => m.group === 'Conversions').map((m) => m.name)).toEqual([
      'trackedInstalls', 'trackedInstallRate', 'trials', 'costPerTrial', 'purchases', 'costPerPurchase',
      'totalRevenue', 'tapRevenue', 'viewRevenue', 'roas', 'arpu',
    ]);
    expect(COHORT_COLUMNS).toEqual(['revenueD0', 'revenueD1', 'revenueD3', 'revenueD7', 'revenueD14', 'revenueD30', 'roasD0', 'roasD1', 'roasD3', 'roasD7', 'roasD14', 'roasD30']);
    expect(columnDisplay('roasD7')).toBe('percent');
    expect(CONVERSION_METRICS.filter((m) => m.group === 'Cohort').map((m) => m.name)).toEqual(COHORT_COLUMNS);
    expect(columnDisplay('trackedInstalls')).toBe('count');
    expect(columnDisplay('trackedInstallRate')).toBe('percent');
    expect(columnDisplay('roas')).toBe('percent');
    expect(columnDisplay('costPerTrial')).toBe('money');
    expect(columnDisplay('revenueD7')).toBe('money');
    expect(columnDisplay('ttr')).toBe('percent');
    expect(columnDisplay('campaignName')).toBeNull();
    expect(conversionGroupOf('arpu')).toBe('Conversions');
    expect(conversionGroupOf('revenueD30')).toBe('Cohort');
    expect(conversionGroupOf('taps')).toBeNull();
    // They are not report metrics: no filter, rule or chart offers them yet.
    expect(METRIC_NAMES).not.toContain('roas');
  });

  it('refuses a conversion column shown some other way or in an unknown group', () => {
    const bad = (entry: Record<string, string>) => catalogPartsSchema.safeParse({ ...json, conversionMetrics: [entry] }).success;
    expect(bad({ name: 'roas', display: 'percent', group: 'Conversions' })).toBe(true);
    expect(bad({ name: 'roas', display: 'decimal', group: 'Conversions' })).toBe(false);
    expect(bad({ name: 'roas', display: 'percent', group: 'Benchmarks' })).toBe(false);
    expect(catalogPartsSchema.safeParse({ ...json, cohortColumns: undefined }).success).toBe(false);
  });

  it('lists the 26 metrics once each, the 12 common ones first in the spec’s order', () => {
    expect(METRIC_NAMES).toHaveLength(26);
    expect(new Set(METRIC_NAMES).size).toBe(26);
    expect(COMMON_METRICS).toEqual(['avgCPM', 'IPM', 'impressions', 'ttr', 'taps', 'avgCPT', 'conversionRate', 'installs', 'newDownloads', 'redownloads', 'avgCPA', 'localSpend']);
    expect(METRIC_NAMES.slice(0, 12)).toEqual(COMMON_METRICS);
  });

  it('has the chart’s 21 metrics among them, each marked as a graph metric', () => {
    expect(GRAPH_METRICS).toHaveLength(21);
    for (const name of GRAPH_METRICS) expect(METRIC_NAMES).toContain(name);
    expect(json.metrics.filter((m) => m.graph).map((m) => m.name).sort()).toEqual([...GRAPH_METRICS].sort());
  });

  it('says how each metric shows: ratios as percentages, IPM as a decimal, counters as counts', () => {
    expect(metricDisplay('ttr')).toBe('percent');
    expect(metricDisplay('IPM')).toBe('decimal');
    expect(metricDisplay('localSpend')).toBe('money');
    expect(metricDisplay('popularity')).toBeNull();
    expect(metricsShownAs('percent')).toEqual(['ttr', 'conversionRate', 'tapConversionRate', 'totalConversionRate']);
    for (const name of COUNTER_METRICS) expect(metricDisplay(name)).toBe('count');
  });
});
