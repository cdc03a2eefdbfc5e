import type { ReportResult } from './api/report';
import { chartDays, chartGroups, chartSeries } from './chart-series';
import { periodText } from './components/ReportChart';

const base: ReportResult = {
  items: [],
  total: 2,
  totals: { localSpend: null, totalInstalls: 30 },
  currency: null,
  lastSyncedAt: '2026-11-19T10:00:00Z',
  locked: [],
  lockedGroups: [],
  hidden: [],
  page: 1,
  pageSize: 1,
  syncing: false,
  subtotals: [
    { currency: 'JPY', localSpend: 1500, totalInstalls: 10 },
    { currency: 'USD', localSpend: 12.5, totalInstalls: 20 },
  ],
  graph: [
    { date: '2026-11-01', synced: true, localSpend: null, totalInstalls: 12, byCurrency: { JPY: { localSpend: 1000 }, USD: { localSpend: 10 } } },
    { date: '2026-11-02', synced: false, localSpend: null, totalInstalls: 0, byCurrency: { JPY: { localSpend: 0 }, USD: { localSpend: 0 } } },
    { date: '2026-11-03', synced: true, localSpend: null, totalInstalls: 18, byCurrency: { JPY: { localSpend: 500 }, USD: { localSpend: 2.5 } } },
  ],
};

const label = (m: string) => ({ localSpend: 'Spend', totalInstalls: 'Installs' })[m] ?? m;

describe('the chart lines', () => {
  it('draws money over several currencies as one line per currency, with the period in the legend', () => {
    const series = chartSeries(base, ['localSpend', 'totalInstalls'], label, true);
    expect(series.map((s) => s.label)).toEqual(['Spend · JPY', 'Spend · USD', 'Installs']);
    expect(series[0]!.values).toEqual([1000, null, 500]);
    expect(series[1]!.values).toEqual([10, null, 2.5]);
    expect(series.map((s) => s.axis)).toEqual([0, 0, 1]);
    // Not hovering, the legend shows each line's period value, in its own currency.
    expect(series.map(periodText)).toEqual(['¥1 500', '$12.50', '30']);
    expect(chartDays(base)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
  });

  it('draws one chart per currency when money is split by currency, never one axis over two currencies (issue 42)', () => {
    const groups = chartGroups(chartSeries(base, ['localSpend', 'totalInstalls'], label, true));
    expect(groups.map((g) => g.currency)).toEqual(['JPY', 'USD']);
    expect(groups.map((g) => g.series.map((s) => s.label))).toEqual([
      ['Spend · JPY', 'Installs'],
      ['Spend · USD', 'Installs'],
    ]);
    // Each chart's money axis reads in its own currency.
    for (const group of groups) expect(new Set(group.series.filter((s) => s.kind === 'money').map((s) => s.currency))).toEqual(new Set([group.currency]));
    // Converted or single-currency money stays one chart.
    const one: ReportResult = { ...base, currency: 'USD', subtotals: null };
    expect(chartGroups(chartSeries(one, ['localSpend', 'totalInstalls'], label, false))).toHaveLength(1);
  });

  it('leaves days not synced yet out rather than drawing zeros', () => {
    const [, , installs] = chartSeries(base, ['localSpend', 'totalInstalls'], label, true);
    expect(installs!.values).toEqual([12, null, 18]);
  });

  it('draws one converted line, labelled with its currency, when a reporting currency is chosen', () => {
    const converted: ReportResult = {
      ...base,
      converted: { currency: 'EUR', rateDate: '2026-11-03', askedDate: '2026-11-03', source: 'ECB', missing: [], totals: { localSpend: 20.9 } },
      graph: base.graph!.map((p) => ({ ...p, converted: { localSpend: p.date === '2026-11-01' ? 15.4 : 5.5 } })),
    };
    const series = chartSeries(converted, ['localSpend', 'totalInstalls'], label, true);
    expect(series.map((s) => s.label)).toEqual(['Spend (≈ EUR)', 'Installs']);
    expect(series[0]!.values).toEqual([15.4, null, 5.5]);
    expect(series[0]!.converted).toBe(true);
    expect(periodText(series[0]!)).toBe('€20.90');
  });

  it('keeps a single currency as one line in it', () => {
    const one: ReportResult = { ...base, currency: 'USD', totals: { localSpend: 12.5 }, subtotals: null, graph: [{ date: '2026-11-01', synced: true, localSpend: 12.5, totalInstalls: 1 }] };
    const [spend] = chartSeries(one, ['localSpend', 'totalInstalls'], label, false);
    expect(spend!.label).toBe('Spend');
    expect(spend!.values).toEqual([12.5]);
    expect(periodText(spend!)).toBe('$12.50');
  });
});
