/**
 * The campaign-groups screen's data asked from its route, before the page renders (issue 42
 * item 19): the app frame calls `prefetchOrgsScreen` at start-up, beside the session's
 * relogin, with the address's account and query. It asks the ORGS report and its chart's
 * points with the requests the screen builds (totals-request.ts, report.ts), and the chart's
 * chunk, so the answers are in (or on their way) when the screen mounts instead of being asked
 * only once the whole layout has rendered. The reporting currency is the user's saved option
 * when already read, else per currency (what the screen asks while its options load); the
 * options are asked too, and a saved reporting currency asks the converted report as well.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Params } from 'react-router';
import { frontOptionsQuery } from '@/features/options';
import { graphRequestOf, reportQuery, type ReportRequest } from './api/report';
import { ReportChart } from './components/report-chart-chunk';
import { todayIn } from './date-range';
import { readReportingCurrency, REPORTING_CURRENCY_OPTION } from './reporting-currency';
import { totalsRequest } from './totals-request';
import { readTableState } from './url-state';

/** Asks the report and the graph of `request`; their query keys. */
function prefetchTotals(client: QueryClient, request: ReportRequest): QueryKey[] {
  const table = reportQuery(request);
  const graph = reportQuery(graphRequestOf(request));
  void client.prefetchQuery(table);
  void client.prefetchQuery(graph);
  return [table.queryKey, graph.queryKey];
}

/**
 * Asks what `/optimization/:accountId` shows first; returns the query keys asked (the
 * frame drops them when the relogin finds no session).
 */
export function prefetchOrgsScreen(client: QueryClient, params: Params, search: URLSearchParams): QueryKey[] {
  const accountId = params.accountId;
  if (!accountId) return [];
  // As the screen reads it: the range's days as of the browser's today.
  const state = readTableState(search, todayIn(undefined));
  const options = frontOptionsQuery();
  const saved = client.getQueryData(options.queryKey);
  const currency = readReportingCurrency(saved?.item[REPORTING_CURRENCY_OPTION]);
  const keys = [...prefetchTotals(client, totalsRequest('ORGS', accountId, state, currency)), options.queryKey];
  ReportChart.preload().catch(() => undefined);
  if (saved === undefined) {
    void client.prefetchQuery(options).then(() => {
      const chosen = readReportingCurrency(client.getQueryData(options.queryKey)?.item[REPORTING_CURRENCY_OPTION]);
      if (chosen !== null) prefetchTotals(client, totalsRequest('ORGS', accountId, state, chosen));
    });
  }
  return keys;
}
