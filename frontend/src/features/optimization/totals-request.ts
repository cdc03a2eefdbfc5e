/**
 * The report request of the drill-down's two top levels (ACCOUNTS and ORGS) from what the
 * address says (range, sort, page, size, filters) and the user's reporting currency: the
 * screen (components/TotalsScreen) and the route's prefetch (prefetch.ts) build it the same
 * way, so the report asked before the screen renders is the one it reads.
 */
import type { ReportRequest } from './api/report';
import { wireFilters } from './filters';
import type { TableState } from './url-state';

export function totalsRequest(level: 'ACCOUNTS' | 'ORGS', accountId: string, state: TableState, reportingCurrency: string | null): ReportRequest {
  return {
    accountId,
    orgId: null,
    level,
    startDate: state.range.start,
    endDate: state.range.end,
    campaignId: null,
    adGroupId: null,
    sort: state.sort,
    page: state.page,
    pageSize: state.size,
    filters: wireFilters(state.filters),
    reportingCurrency,
  };
}
