/**
 * POST /api/asa/reports?accountId=&orgId=: one page of a drill-down level over a range of
 * days, with the rows' total, totals over every matching row, the org's currency, when it
 * was last synced, and which columns are Growth-locked or hidden by default. A call that a
 * newer one supersedes is aborted: the query function hands TanStack Query's signal to
 * fetch, and the query is cancelled once no screen watches it.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import type { Level } from '../paths';
import { optimizationKeys } from './keys';

/** Default and only page size of the tables (spec §2 Tables). */
export const PAGE_SIZE = 50;

export type ReportRow = Record<string, unknown>;

export const reportResultSchema = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  totals: z.record(z.string(), z.unknown()).nullable(),
  currency: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  locked: z.array(z.string()),
  hidden: z.array(z.string()),
  page: z.number(),
  pageSize: z.number(),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export interface ReportRequest {
  accountId: string;
  orgId: number;
  level: Level;
  startDate: string;
  endDate: string;
  campaignId: number | null;
  adGroupId: number | null;
  sort: { field: string; order: 'asc' | 'desc' } | null;
  page: number;
}

export function getReport(request: ReportRequest, { signal }: CallOptions = {}): Promise<ReportResult> {
  const { accountId, orgId, level, startDate, endDate, campaignId, adGroupId, sort, page } = request;
  return api.post(
    `/asa/reports?${new URLSearchParams({ accountId, orgId: String(orgId) }).toString()}`,
    {
      level,
      startDate,
      endDate,
      page,
      pageSize: PAGE_SIZE,
      ...(sort ? { sort } : {}),
      ...(campaignId !== null ? { campaignId } : {}),
      ...(adGroupId !== null ? { adGroupId } : {}),
    },
    reportResultSchema,
    { signal },
  );
}

/**
 * The report of `request`. While a new page, sort or range loads, the previous answer stays
 * on screen (marked as placeholder data) unless the level changed.
 */
export function useReport(request: ReportRequest) {
  return useQuery({
    queryKey: optimizationKeys.report(request),
    queryFn: ({ signal }) => getReport(request, { signal }),
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[2];
      return before?.level === request.level && before.campaignId === request.campaignId && before.adGroupId === request.adGroupId
        ? keepPreviousData(previous)
        : undefined;
    },
    staleTime: 30_000,
  });
}
