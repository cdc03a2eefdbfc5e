/**
 * CSV export of the current view: every page of the table's query (its level, scope, range,
 * filters and sort) read in the largest pages the report call gives, in the visible
 * columns, downloaded as a file. Optionally only the selected rows (by id).
 */
import { useMutation } from '@tanstack/react-query';
import { downloadCsv } from '@/lib/csv';
import { getReport, MAX_PAGE_SIZE, type ReportRequest, type ReportRow } from '../api/report';
import { buildCsv, csvFileName } from '../csv';

/** Pages read at most (100 000 rows). */
const MAX_PAGES = 100;

export async function fetchAllRows(request: ReportRequest): Promise<{ rows: ReportRow[]; currency: string | null }> {
  const rows: ReportRow[] = [];
  let currency: string | null = null;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await getReport({ ...request, page, pageSize: MAX_PAGE_SIZE, graph: false });
    currency = result.currency ?? null;
    rows.push(...result.items);
    if (rows.length >= result.total || result.items.length < MAX_PAGE_SIZE) break;
  }
  return { rows, currency };
}

export interface ExportInput {
  request: ReportRequest;
  columns: string[];
  /** Only these rows (ids of the level's id field), when given. */
  only?: { field: string; ids: Set<string> } | undefined;
}

export function useExportCsv() {
  return useMutation({
    mutationFn: async ({ request, columns, only }: ExportInput) => {
      const { rows, currency } = await fetchAllRows(request);
      const kept = only ? rows.filter((row) => only.ids.has(String(row[only.field]))) : rows;
      downloadCsv(buildCsv(request.level, columns, kept, currency), csvFileName(request.level, request.startDate, request.endDate));
      return kept.length;
    },
  });
}
