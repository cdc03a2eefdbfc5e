import { screen, waitFor } from '@testing-library/react';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement as mockCreateElement } from 'react';
import { createQueryClient } from '@/lib/query-client';
import type { ReportRequest } from '../api/report';
import { ChartPanel } from './ChartPanel';

// jsdom has no canvas for uPlot to draw on: the panel's chart (drawn at once now that its
// chunk is asked when the panel mounts) stands in as the days and lines it was given.
jest.mock('./ReportChart', () => ({
  __esModule: true,
  default: ({ days, series }: { days: string[]; series: { label: string }[] }) =>
    mockCreateElement('div', { 'data-testid': 'report-chart-stub' }, `${days.length} days: ${series.map((s) => s.label).join(', ')}`),
}));

const request: ReportRequest = {
  accountId: 'a1',
  orgId: '42',
  level: 'KEYWORDS',
  startDate: '2026-11-01',
  endDate: '2026-11-02',
  campaignId: '7',
  adGroupId: null,
  sort: null,
  page: 1,
  filters: [{ field: 'taps', operator: 'GREATER_THAN', values: [100] }],
};

function graphAnswer(total: number) {
  return {
    items: [],
    total,
    totals: {},
    currency: 'USD',
    lastSyncedAt: '2026-11-19T10:00:00Z',
    locked: [],
    lockedGroups: [],
    syncing: false,
    hidden: [],
    page: 1,
    pageSize: 1,
    graph: [
      { date: '2026-11-01', synced: true, taps: 5, impressions: 50 },
      { date: '2026-11-02', synced: true, taps: 7, impressions: 70 },
    ],
  };
}

function renderWithProviders(ui: React.ReactElement) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the chart and the table filters', () => {
  it('asks for the points of the filtered rows and says it plots them', async () => {
    mockApi('POST /api/asa/reports', ok(graphAnswer(12)));
    renderWithProviders(<ChartPanel request={request} metrics={['taps', 'impressions']} onMetrics={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('chart-filtered')).toHaveTextContent('Filtered: plots the rows that match the filters (12 rows)'));
    expect(await screen.findByTestId('report-chart-stub')).toHaveTextContent('2 days: Taps, Impressions');
    await waitFor(() => expect(callsTo('POST /api/asa/reports')).toHaveLength(1));
    expect(callsTo('POST /api/asa/reports')[0]!.body).toMatchObject({ graph: true, filters: request.filters });
  });

  it('says nothing of filters without them', async () => {
    mockApi('POST /api/asa/reports', ok(graphAnswer(15)));
    renderWithProviders(<ChartPanel request={{ ...request, filters: [] }} metrics={['taps', 'impressions']} onMetrics={() => {}} />);
    await waitFor(() => expect(callsTo('POST /api/asa/reports')).toHaveLength(1));
    expect(screen.queryByTestId('chart-filtered')).not.toBeInTheDocument();
  });
});
