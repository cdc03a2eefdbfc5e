/**
 * POST /api/asa/reports?accountId=&orgId=: one page of a drill-down level over a range of
 * days (ACCOUNTS and ORGS need no campaign group: every account of the workspace, every
 * campaign group of the account), with the rows' total, totals over every matching row, the org's currency, when it
 * was last synced, and which columns are Growth-locked or hidden by default. A call that a
 * newer one supersedes is aborted: the query function hands TanStack Query's signal to
 * fetch, and the query is cancelled once no screen watches it.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { zConverted, zEnvelopeReportResult, zReportItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { EntityId } from '@/lib/ids';
import type { WireFilter } from '../filters';
import type { Level } from '../paths';
import { optimizationKeys } from './keys';

/** Default and only page size of the tables (docs/product.md#2-tables). */
export const PAGE_SIZE = 50;

export type ReportRow = Record<string, unknown>;

/** Money converted to the reporting currency (ACCOUNTS and ORGS with a reporting currency). */
export const convertedSchema = zConverted;
export type Converted = z.infer<typeof convertedSchema>;

/**
 * The document's `ReportResult`; its rows (`ReportItem`: the metrics, the level's id, name,
 * status and column fields) are read by column key, as the tables show them.
 */
export const reportResultSchema = zEnvelopeReportResult.shape.result.extend({
  items: z.array(zReportItem.transform((row): ReportRow => row)),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export interface ReportRequest {
  /** The account (on ACCOUNTS any account of the workspace: the rows are all of them). */
  accountId: string;
  /** The campaign group; null on ACCOUNTS and ORGS. */
  orgId: EntityId | null;
  level: Level;
  startDate: string;
  endDate: string;
  campaignId: EntityId | null;
  adGroupId: EntityId | null;
  sort: { field: string; order: 'asc' | 'desc' } | null;
  page: number;
  /** Valid filters in the wire shape (filters.ts). */
  filters: WireFilter[];
  /** Rows per page: PAGE_SIZE unless given (the export asks for the largest pages). */
  pageSize?: number;
  /** Whether to answer one graph point per day. */
  graph?: boolean;
  /** ACCOUNTS and ORGS: also convert money to this currency (the user's reporting currency). */
  reportingCurrency?: string | null;
}

/** The largest page the report call answers (the export reads every page with it). */
export const MAX_PAGE_SIZE = 1000;

export function getReport(request: ReportRequest, { signal }: CallOptions = {}): Promise<ReportResult> {
  const { accountId, orgId, level, startDate, endDate, campaignId, adGroupId, sort, page, filters, pageSize = PAGE_SIZE, graph = false, reportingCurrency = null } = request;
  return api.post(
    `/asa/reports?${new URLSearchParams(orgId === null ? { accountId } : { accountId, orgId }).toString()}`,
    {
      level,
      startDate,
      endDate,
      page,
      pageSize,
      ...(filters.length ? { filters } : {}),
      ...(graph ? { graph } : {}),
      ...(sort ? { sort } : {}),
      ...(campaignId !== null ? { campaignId } : {}),
      ...(adGroupId !== null ? { adGroupId } : {}),
      ...(reportingCurrency ? { reportingCurrency } : {}),
    },
    reportResultSchema,
    { signal },
  );
}

/** How often a report whose metrics are still being stored is read again. */
export const SYNCING_POLL_MS = 3000;

/** How long an answer is fresh: a screen that mounts within it reads it without asking again. */
const REPORT_STALE_MS = 30_000;

/**
 * The report of `request` as a query (its key, call and freshness): the screens' hooks and
 * the route's prefetch (../prefetch) share it, so a report asked before the screen renders
 * is the one the screen reads.
 */
export const reportQuery = (request: ReportRequest) =>
  queryOptions({
    queryKey: optimizationKeys.report(request),
    queryFn: ({ signal }) => getReport(request, { signal }),
    staleTime: REPORT_STALE_MS,
  });

/**
 * The report of `request`. While a new page, sort or range loads, the previous answer stays
 * on screen (marked as placeholder data) unless the level changed. While its metrics are
 * still being stored (`syncing`), it is read again every few seconds, so each campaign
 * group's numbers show as soon as they are in.
 */
export function useReport(request: ReportRequest) {
  return useQuery({
    ...reportQuery(request),
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[2];
      return before?.level === request.level && before.campaignId === request.campaignId && before.adGroupId === request.adGroupId
        ? keepPreviousData(previous)
        : undefined;
    },
    refetchInterval: (query) => (query.state.data?.syncing ? SYNCING_POLL_MS : false),
  });
}

/**
 * The request of the graph of the table's `request`: one row asked for (only the graph is
 * read). Sort and page do not change the points, so they are left out of the key.
 */
export function graphRequestOf(request: ReportRequest): ReportRequest {
  return { ...request, sort: null, page: 1, pageSize: 1, graph: true };
}

/** The daily points of the graph metrics for the table's level, scope, range and filters. */
export function useGraph(request: ReportRequest, enabled: boolean) {
  return useQuery({
    ...reportQuery(graphRequestOf(request)),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: (query) => (query.state.data?.syncing ? SYNCING_POLL_MS : false),
  });
}
