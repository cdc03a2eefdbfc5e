/**
 * The report table on its own: a long page's rows in whole blocks, its frozen column widths
 * (measured with a collapsed row of the page's widest values).
 */
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import type { ReportResult, ReportRow } from '../api/report';
import { columnsOf } from '../columns';
import { ReportTable } from './ReportTable';
import { blockRange, columnSpan, widestRow } from './report-table/virtual';

describe('blockRange', () => {
  it('renders the rows in view and the overscan, widened to whole blocks of 8', () => {
    expect(blockRange({ startIndex: 20, endIndex: 34, overscan: 6, count: 1000 })).toEqual(Array.from({ length: 40 }, (_, i) => 8 + i));
    // One row further on either edge does not change the rendered rows…
    expect(blockRange({ startIndex: 21, endIndex: 35, overscan: 6, count: 1000 })).toEqual(blockRange({ startIndex: 20, endIndex: 34, overscan: 6, count: 1000 }));
    // …until a block boundary is crossed.
    expect(blockRange({ startIndex: 22, endIndex: 36, overscan: 6, count: 1000 })[0]).toBe(16);
  });

  it('stays within the page', () => {
    expect(blockRange({ startIndex: 0, endIndex: 14, overscan: 6, count: 1000 })[0]).toBe(0);
    const last = blockRange({ startIndex: 985, endIndex: 999, overscan: 6, count: 1000 });
    expect(last[last.length - 1]).toBe(999);
    expect(blockRange({ startIndex: 0, endIndex: 2, overscan: 6, count: 3 })).toEqual([0, 1, 2]);
  });
});

describe('columnSpan', () => {
  // The selection column (40 px), the name column (200 px), then ten columns of 100 px.
  const widths = [40, 200, ...Array.from({ length: 10 }, () => 100)];

  it('draws the columns in view and 320 px either side', () => {
    // At the left edge of a 500 px box: columns 1–6 start before 500 + 320 = 820 px.
    expect(columnSpan(widths, 0, 500)).toEqual({ from: 1, to: 6 });
    // Scrolled by 600 px: columns ending more than 320 px under the sticky ones are not drawn.
    expect(columnSpan(widths, 600, 500)).toEqual({ from: 3, to: 10 });
  });

  it('draws no other column when there is none', () => {
    expect(columnSpan([40, 200], 0, 500)).toEqual({ from: 1, to: 0 });
  });
});

describe('widestRow', () => {
  it('holds each column’s widest value as its cell shows it', () => {
    const defs = columnsOf('KEYWORDS').filter((d) => ['keyword', 'impressions', 'localSpend', 'tag'].includes(d.field));
    const items: ReportRow[] = [
      { keywordId: '1', keyword: 'short', impressions: 99_999, localSpend: '12.50', tag: [] },
      { keywordId: '2', keyword: 'a much longer keyword', impressions: 5, localSpend: '1234.5', tag: [{ id: 't', name: 'Brand', color: 'GREEN' }] },
      { keywordId: '3', keyword: 'mid length', impressions: -100_000, localSpend: null, tag: [] },
    ];
    const row = widestRow(items, defs)!;
    expect(row.keyword).toBe('a much longer keyword');
    expect(row.impressions).toBe(-100_000);
    expect(row.localSpend).toBe('1234.5');
    expect(row.tag).toEqual(items[1]!.tag);
    // The other fields are the first row's, so the row is editable as the page's rows are.
    expect(row.keywordId).toBe('1');
    expect(widestRow([], defs)).toBeNull();
  });
});

describe('ReportTable on a long page', () => {
  const fields = columnsOf('KEYWORDS').map((c) => c.field);
  const items: ReportRow[] = Array.from({ length: 300 }, (_, i) => ({ keywordId: String(i + 1), keyword: `kw ${i + 1}`, keywordStatus: 'ACTIVE', campaignId: '7', adGroupId: '9', cptBid: 1 }));
  const result = { items, total: 300, totals: null, currency: 'USD', locked: [] } as unknown as ReportResult;
  const scope = { accountId: 'a1', orgId: '42', level: 'KEYWORDS' as const, campaignId: '7', adGroupId: '9' };
  const edit = { scope, canEdit: true };

  // jsdom lays nothing out: the scroll box gets a screen's height, header cells 100 px.
  const patched: [object, string, PropertyDescriptor][] = [
    [HTMLElement.prototype, 'clientHeight', { get: (): number => 600 }],
    [HTMLElement.prototype, 'offsetHeight', { get: (): number => 41 }],
  ];
  let measureHeader = true;
  beforeEach(() => {
    for (const [target, prop, descriptor] of patched) Object.defineProperty(target, prop, { configurable: true, ...descriptor });
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const width = measureHeader && this.tagName === 'TH' ? 100 : 0;
      return { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: width, width, height: 0, toJSON: () => ({}) };
    });
  });
  afterEach(() => {
    for (const [target, prop] of patched) delete (target as Record<string, unknown>)[prop];
    jest.restoreAllMocks();
    measureHeader = true;
  });

  function renderTable() {
    const queryClient = createQueryClient();
    return render(
      <MantineProvider env="test">
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>
          <ReportTable
            level="KEYWORDS"
            result={result}
            rowLink={() => null}
            sort={null}
            onSort={() => {}}
            stale={false}
            columns={fields}
            rowId={(row) => String(row.keywordId)}
            selected={new Set()}
            onSelect={() => {}}
            edit={edit}
          />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
  }

  it('shows its first rows and freezes the measured column widths', () => {
    const { container } = renderTable();
    const table = container.querySelector('table')!;
    expect(table.querySelectorAll('tbody tr[data-index]').length).toBeGreaterThan(0);
    expect(table.querySelector('tbody tr[data-index="0"]')).toHaveTextContent('kw 1');
    // Measured: fixed layout, one column width each (the bid column wide enough for its
    // editor), and the sizing row gone.
    expect(table.style.tableLayout).toBe('fixed');
    const widths = [...table.querySelectorAll('col')].map((col) => col.style.width);
    expect(widths).toHaveLength(fields.length + 1);
    expect(widths[fields.indexOf('keyword') + 1]).toBe('100px');
    expect(widths[fields.indexOf('cptBid') + 1]).toBe('172px');
    expect(table.querySelector('thead tr[aria-hidden]')).toBeNull();
    // Every header is there; a body row draws the columns in view (jsdom's box is 0 px wide,
    // so the two after the name) and one empty cell spanning the others.
    expect(table.querySelectorAll('thead th')).toHaveLength(fields.length + 1);
    const cells = [...table.querySelectorAll<HTMLTableCellElement>('tbody tr[data-index="0"] td')];
    expect(cells).toHaveLength(5);
    expect(cells[1]).toHaveTextContent('kw 1');
    expect(cells[4]!.colSpan).toBe(fields.length - 3);
    expect(cells[4]).toBeEmptyDOMElement();
  });

  it('keeps the automatic layout when nothing could be measured (a hidden table)', () => {
    measureHeader = false;
    const { container } = renderTable();
    const table = container.querySelector('table')!;
    expect(table.style.tableLayout).toBe('');
    expect(table.querySelector('col')).toBeNull();
    expect(table.querySelector('thead tr[aria-hidden]')).toBeNull();
    expect(table.querySelectorAll('tbody tr[data-index]').length).toBeGreaterThan(0);
  });
});

describe('ReportTable on a short page', () => {
  const campaigns: ReportRow[] = [{ campaignId: '7', campaignName: 'Brand US', servingStatus: 'RUNNING', localSpend: 12.5, taps: 3 }];
  const result = { items: campaigns, total: 1, totals: { localSpend: 12.5, taps: 3 }, currency: 'USD', locked: [] } as unknown as ReportResult;

  function table(level: 'CAMPAIGNS' | 'GROUPS', path: string) {
    return (
      <MantineProvider env="test">
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[path]}>
            <ReportTable
              level={level}
              result={result}
              rowLink={() => null}
              sort={null}
              onSort={() => {}}
              stale={false}
              columns={['campaignName', 'localSpend', 'taps']}
              rowId={(row) => String(row.campaignId)}
              selected={new Set()}
              onSelect={() => {}}
            />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    );
  }

  it('says its row count in the plural the count takes', () => {
    const { getByTestId } = render(table('CAMPAIGNS', '/optimization/a1/42'));
    expect(getByTestId('totals-row')).toHaveTextContent('Total (1 row)');
  });

  it('leaves the scroll of a table just mounted alone (setting it forces a layout of the page during its first render)', () => {
    const set = jest.fn();
    const own = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollLeft')!;
    Object.defineProperty(Element.prototype, 'scrollLeft', { configurable: true, get: () => 0, set });
    try {
      render(table('CAMPAIGNS', '/optimization/a1/42'));
      expect(set).not.toHaveBeenCalled();
    } finally {
      Object.defineProperty(Element.prototype, 'scrollLeft', own);
    }
  });

  it('opens each level scrolled to its first columns', () => {
    const { getByTestId, rerender } = render(table('CAMPAIGNS', '/optimization/a1/42'));
    const scroller = getByTestId('report-table');
    // jsdom does not scroll: the box keeps what is set.
    let left = 0;
    Object.defineProperty(scroller, 'scrollLeft', { configurable: true, get: () => left, set: (v: number) => (left = v) });
    scroller.scrollLeft = 480;
    rerender(table('GROUPS', '/optimization/a1/42/campaign-id-7/groups'));
    expect(getByTestId('report-table')).toBe(scroller);
    expect(scroller.scrollLeft).toBe(0);
  });
});
