/**
 * The chart's lines from a graph answer: one per chosen metric, except money over several
 * currencies (All accounts, an account's campaign groups), which has one line per currency
 * (`byCurrency`), or one converted line when a reporting currency is chosen (`converted`,
 * labelled "≈ <currency>"). Days not synced yet (`synced: false`) are gaps, not zeros. Each
 * line carries the period's value, which the legend shows while no day is hovered.
 */
import type { ColumnKind } from './columns';
import { graphKind, type ChartMetrics } from './chart-metrics';
import type { ReportResult } from './api/report';

export interface ChartSeries {
  /** Stable key (metric, and currency when split). */
  key: string;
  /** The metric's name in the legend, with its currency when split or converted. */
  label: string;
  metric: string;
  /** 0: left axis, 1: right axis. */
  axis: 0 | 1;
  kind: ColumnKind;
  /** The currency of the values (money). */
  currency: string | null;
  values: (number | null)[];
  /** The period's value (the totals'), shown in the legend when no day is hovered. */
  period: unknown;
  /** Converted at reference rates (drawn dashed). */
  converted: boolean;
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The days of the answer's points (YYYY-MM-DD). */
export function chartDays(result: ReportResult): string[] {
  return (result.graph ?? []).map((p) => String(p.date));
}

/** The lines of `metrics` in `result`, each labelled with `label(metric)` (and its currency when split). */
export function chartSeries(result: ReportResult, metrics: ChartMetrics, label: (metric: string) => string, mixed: boolean): ChartSeries[] {
  const points = result.graph ?? [];
  const synced = points.map((p) => p.synced !== false);
  const pick = (read: (p: Record<string, unknown>) => unknown) => points.map((p, i) => (synced[i] ? numberOf(read(p)) : null));
  const out: ChartSeries[] = [];
  metrics.forEach((metric, index) => {
    const axis = index as 0 | 1;
    const kind = graphKind(metric);
    if (kind === 'money' && result.converted) {
      const { currency, totals } = result.converted;
      out.push({
        key: `${metric}:≈${currency}`,
        label: `${label(metric)} (≈ ${currency})`,
        metric,
        axis,
        kind,
        currency,
        values: pick((p) => objectOf(p.converted)[metric]),
        period: totals[metric],
        converted: true,
      });
      return;
    }
    if (kind === 'money' && mixed) {
      for (const sub of result.subtotals ?? []) {
        const currency = typeof sub.currency === 'string' ? sub.currency : null;
        if (currency === null) continue;
        out.push({
          key: `${metric}:${currency}`,
          label: `${label(metric)} · ${currency}`,
          metric,
          axis,
          kind,
          currency,
          values: pick((p) => objectOf(objectOf(p.byCurrency)[currency])[metric]),
          period: sub[metric],
          converted: false,
        });
      }
      return;
    }
    out.push({
      key: metric,
      label: label(metric),
      metric,
      axis,
      kind,
      currency: result.currency ?? null,
      values: pick((p) => p[metric]),
      period: objectOf(result.totals)[metric],
      converted: false,
    });
  });
  return out;
}

/** The lines of one chart: all of them, or one currency's when money is split by currency. */
export interface ChartGroup {
  /** The currency of this chart's money, when the lines are split by currency. */
  currency: string | null;
  series: ChartSeries[];
}

/**
 * The charts to draw: one, unless the lines are split by currency (several currencies, no
 * reporting currency), then one per currency, so an axis only ever reads in the money it
 * plots — never one currency's sign over another's amounts.
 */
export function chartGroups(series: ChartSeries[]): ChartGroup[] {
  const split = series.filter((s) => !s.converted && s.key.includes(':'));
  const currencies = [...new Set(split.map((s) => s.currency).filter((c): c is string => c !== null))];
  if (currencies.length < 2) return [{ currency: null, series }];
  // Lines not split by currency (counts, ratios) are the same in each chart.
  return currencies.map((currency) => ({ currency, series: series.filter((s) => !split.includes(s) || s.currency === currency) }));
}
