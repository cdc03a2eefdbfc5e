import { GRAPH_METRICS, graphKind, readChartMetrics } from './chart-metrics';

describe('the chart’s metrics (from the report catalog)', () => {
  it('are the 21 of spec §2, in the chart’s order', () => {
    expect(GRAPH_METRICS).toEqual([
      'impressions',
      'taps',
      'tapInstalls',
      'viewInstalls',
      'totalInstalls',
      'tapNewDownloads',
      'viewNewDownloads',
      'totalNewDownloads',
      'tapRedownloads',
      'viewRedownloads',
      'totalRedownloads',
      'ttr',
      'tapAvgCPA',
      'viewAvgCPA',
      'totalAvgCPA',
      'avgCPT',
      'localSpend',
      'tapConversionRate',
      'totalConversionRate',
      'IPM',
      'avgCPM',
    ]);
  });

  it('show money, percentages, IPM as a decimal, the rest as counts', () => {
    expect(['tapAvgCPA', 'viewAvgCPA', 'totalAvgCPA', 'avgCPT', 'localSpend', 'avgCPM'].map(graphKind)).toEqual(Array(6).fill('money'));
    expect(['ttr', 'tapConversionRate', 'totalConversionRate'].map(graphKind)).toEqual(Array(3).fill('percent'));
    expect(graphKind('IPM')).toBe('decimal');
    expect(graphKind('taps')).toBe('count');
  });

  it('reads two different graph metrics from the address, else the default pair', () => {
    expect(readChartMetrics('taps,ttr')).toEqual(['taps', 'ttr']);
    expect(readChartMetrics('taps,installs')).toEqual(['localSpend', 'totalInstalls']);
    expect(readChartMetrics('taps,taps')).toEqual(['localSpend', 'totalInstalls']);
  });
});
