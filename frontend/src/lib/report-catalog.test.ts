import json from '@/api/report-catalog.json';
import { catalogPartsSchema, COMMON_METRICS, COUNTER_METRICS, GRAPH_METRICS, HIDDEN_BY_DEFAULT, METRIC_NAMES, metricDisplay, metricsShownAs } from './report-catalog';

describe('the report catalog', () => {
  it('reads the file the server writes', () => {
    expect(catalogPartsSchema.safeParse(json).success).toBe(true);
    expect(HIDDEN_BY_DEFAULT).toEqual(['rules', 'totalRevenue', 'trackedInstalls', 'organicSearch', 'auctionInsights']);
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
