/**
 * Step 2, keyword selection (docs/product.md#2-keyword-suggester): the collected keywords in a
 * table (TanStack Table over Mantine's, like the optimisation tables): sortable columns, a search,
 * popularity range and source filters, a checkbox per row and for every row shown, removal of the
 * selected keywords from the list (restorable), and the counts. Each row shows Apple's
 * popularity (1–100 and the 1–5 dots), where the keyword came from, the estimated
 * impressions (a placeholder while they are asked; sorted by the filled values) and whether the campaign group already bids on it or has it as a negative
 * (where, on hover).
 */
import { ActionIcon, Badge, Box, Button, Card, Checkbox, Group, MultiSelect, Pagination, RangeSlider, Skeleton, Stack, Table, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconInfoCircle, IconSearch, IconTableOff, IconTrash, IconX } from '@tabler/icons-react';
import {
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { t, type MessageKey } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { Keyword, KeywordSource, SourceType } from '../api/types';
import type { Suggester } from '../hooks/useSuggester';
import { filterKeywords, FULL_RANGE, isFiltered, NO_FILTER, popularityDots, removeSelected, sourcesIn, toggleSelection, type KeywordFilter } from '../keyword-filter';

/** docs/product.md#9-tables-and-notifications: tables show 50 rows a page. */
const PAGE_SIZE = 50;

const SOURCE_KEYS: Record<SourceType, MessageKey> = {
  required: 'suggester.source.required',
  hint: 'suggester.source.hint',
  app: 'suggester.source.app',
  competitor: 'suggester.source.competitor',
  phrase: 'suggester.source.phrase',
  apple: 'suggester.source.apple',
  searchTerm: 'suggester.source.searchTerm',
};
const labelOfSource = (type: string): string => (type in SOURCE_KEYS ? t(SOURCE_KEYS[type as SourceType]) : type);

const SOURCE_COLORS: Record<string, string> = {
  required: 'grape',
  hint: 'blue',
  app: 'teal',
  competitor: 'orange',
  phrase: 'violet',
  apple: 'gray',
  searchTerm: 'green',
};

/** One source as a badge; a competitor's names the app. */
function SourceBadge({ source }: { source: KeywordSource }) {
  const label = source.type === 'competitor' && source.name ? source.name : labelOfSource(source.type);
  return (
    <Badge size="sm" variant="light" color={SOURCE_COLORS[source.type] ?? 'gray'} tt="none" title={source.type === 'competitor' ? `${labelOfSource('competitor')}: ${label}` : undefined}>
      {label}
    </Badge>
  );
}

/** Apple's 1–5 scale as dots. */
export function PopularityDots({ value }: { value: number }) {
  return (
    <span aria-label={`${value}/5`} style={{ display: 'inline-flex', gap: 3 }}>
      {Array.from({ length: 5 }, (_, i) => (
        <span
          key={i}
          style={{ width: 7, height: 7, borderRadius: 7, background: i < value ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-3)' }}
        />
      ))}
    </span>
  );
}

function PopularityCell({ keyword }: { keyword: Keyword }) {
  return (
    <Group gap={8} wrap="nowrap" justify="flex-end">
      <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {keyword.popularity === null ? '—' : formatNumber(keyword.popularity, 0)}
      </Text>
      <PopularityDots value={popularityDots(keyword)} />
    </Group>
  );
}

/** Where the campaign group already has the keyword, one line a place. */
function placesOf(keyword: Keyword): { bidOn: string[]; negatedIn: string[] } {
  return {
    bidOn: keyword.bidOn.map((b) => [b.campaignName ?? b.campaignId, b.adGroupName ?? b.adGroupId, b.matchType].filter(Boolean).join(' › ')),
    negatedIn: keyword.negatedIn.map((n) => [n.campaignName ?? n.campaignId, n.adGroupId ?? t('suggester.campaignLevel')].join(' › ')),
  };
}

function AccountCell({ keyword }: { keyword: Keyword }) {
  const { bidOn, negatedIn } = placesOf(keyword);
  if (bidOn.length === 0 && negatedIn.length === 0) return <Text size="sm" c="dimmed">—</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      {bidOn.length > 0 && (
        <Tooltip label={bidOn.join('\n')} multiline style={{ whiteSpace: 'pre-line' }} withArrow>
          <Badge size="sm" color="blue" variant="outline" tt="none" data-testid="bid-on">
            {t('suggester.bidOn')} · {bidOn.length}
          </Badge>
        </Tooltip>
      )}
      {negatedIn.length > 0 && (
        <Tooltip label={negatedIn.join('\n')} multiline style={{ whiteSpace: 'pre-line' }} withArrow>
          <Badge size="sm" color="red" variant="outline" tt="none" data-testid="negated">
            {t('suggester.negated')} · {negatedIn.length}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

function HeaderLabel({ label, help }: { label: string; help?: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text span size="xs" fw={700} tt="uppercase" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
      {help && (
        <Tooltip label={help} multiline w={260} withArrow>
          <IconInfoCircle size={13} color="var(--mantine-color-gray-5)" aria-label={help} />
        </Tooltip>
      )}
    </Group>
  );
}

/** An estimate still being asked: a placeholder, not a figure. */
export function EstimatePending() {
  return <Skeleton height={12} width={48} ml="auto" radius="sm" aria-label={t('suggester.estimating')} data-testid="estimate-pending" />;
}

const columns: ColumnDef<Keyword>[] = [
  { id: 'name', accessorKey: 'name', header: () => t('suggester.col.keyword'), sortDescFirst: false },
  { id: 'popularity', accessorFn: (k) => k.popularity ?? -1, header: () => t('suggester.col.popularity'), sortDescFirst: true },
  { id: 'sources', accessorFn: (k) => k.sources.length, header: () => t('suggester.col.sources'), enableSorting: false },
  { id: 'impressions', accessorKey: 'impressions', header: () => t('suggester.col.impressions'), sortDescFirst: true },
  { id: 'account', accessorFn: (k) => k.bidOn.length * 2 + k.negatedIn.length, header: () => t('suggester.col.account'), sortDescFirst: true },
];

const HELP: Partial<Record<string, MessageKey>> = { popularity: 'suggester.popularityHelp', impressions: 'suggester.impressionsHelp' };
const NUMERIC = new Set(['popularity', 'impressions']);

export function KeywordSelection({ suggester }: { suggester: Suggester }) {
  const { state, setSelection, estimating } = suggester;
  const items = useMemo(() => suggester.keywords ?? [], [suggester.keywords]);
  const [filter, setFilter] = useState<KeywordFilter>(NO_FILTER);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'popularity', desc: true }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: PAGE_SIZE });

  const removedNames = useMemo(() => new Set(state.removed.map((r) => r.name)), [state.removed]);
  const listed = useMemo(() => items.filter((k) => !removedNames.has(k.name)), [items, removedNames]);
  const shown = useMemo(() => filterKeywords(listed, filter), [listed, filter]);
  const selectedNames = useMemo(() => new Set(state.selected.map((p) => p.name)), [state.selected]);
  const sources = useMemo(() => sourcesIn(items), [items]);

  // TanStack Table keeps its state outside React; the compiler leaves this unmemoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: shown,
    columns,
    state: { sorting, pagination },
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    getRowId: (k) => k.name,
    autoResetPageIndex: true,
  });

  const updateFilter = (change: Partial<KeywordFilter>) => {
    setFilter((f) => ({ ...f, ...change }));
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };

  const shownSelected = shown.filter((k) => selectedNames.has(k.name)).length;
  const allShown = shown.length > 0 && shownSelected === shown.length;
  const someShown = shownSelected > 0 && !allShown;
  const pages = Math.max(1, table.getPageCount());

  if (items.length === 0) {
    return (
      <Card withBorder padding={0}>
        <Stack align="center" gap={4} py={56} px="md" data-testid="empty-state">
          <IconTableOff size={32} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text fw={600}>{t('suggester.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" ta="center" maw={460}>
            {t('suggester.emptyText')}
          </Text>
        </Stack>
      </Card>
    );
  }

  return (
    <Stack gap="md" data-testid="keyword-selection">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput
            label={t('suggester.search')}
            placeholder={t('suggester.search')}
            leftSection={<IconSearch size={16} />}
            value={filter.search}
            onChange={(e) => updateFilter({ search: e.currentTarget.value })}
            w={240}
            rightSection={
              filter.search ? (
                <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => updateFilter({ search: '' })} aria-label={t('common.close')}>
                  <IconX size={14} />
                </ActionIcon>
              ) : undefined
            }
          />
          <Box w={220} pb={6}>
            <Text size="sm" fw={500} mb={6}>
              {t('suggester.popularityFilter')}: {filter.popularity[0]}–{filter.popularity[1]}
            </Text>
            <RangeSlider
              min={0}
              max={100}
              step={1}
              minRange={0}
              value={filter.popularity}
              onChange={(popularity) => updateFilter({ popularity })}
              label={null}
              aria-label={t('suggester.popularityFilter')}
              data-testid="popularity-filter"
            />
          </Box>
          <MultiSelect
            label={t('suggester.sourcesFilter')}
            placeholder={filter.sources.length === 0 ? t('suggester.sourcesAll') : undefined}
            data={sources.map((type) => ({ value: type, label: labelOfSource(type) }))}
            value={filter.sources}
            onChange={(value) => updateFilter({ sources: value })}
            clearable
            w={280}
            data-testid="source-filter"
          />
          {isFiltered(filter) && (
            <Button variant="subtle" size="compact-sm" mb={6} onClick={() => updateFilter({ ...NO_FILTER, popularity: FULL_RANGE })}>
              {t('suggester.resetFilters')}
            </Button>
          )}
        </Group>
      </Group>

      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" data-testid="keyword-counts">
          <Text span fw={600} c="dark">
            {formatNumber(listed.length, 0)}
          </Text>{' '}
          {t('suggester.countTotal')} · {formatNumber(shown.length, 0)} {t('suggester.countShown')} ·{' '}
          <Text span fw={600} c="blue">
            {formatNumber(state.selected.length, 0)}
          </Text>{' '}
          {t('suggester.countSelected')}
          {state.removed.length > 0 && ` · ${formatNumber(state.removed.length, 0)} ${t('suggester.countRemoved')}`}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={shown.length === 0 || allShown} onClick={() => setSelection(toggleSelection(state.selected, shown, true))}>
            {t('suggester.selectShown')}
          </Button>
          <Button variant="default" size="xs" disabled={state.selected.length === 0} onClick={() => setSelection([])}>
            {t('suggester.clearSelection')}
          </Button>
          <Button
            variant="light"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} />}
            disabled={state.selected.length === 0}
            onClick={() => {
              const next = removeSelected(state.selected, state.removed);
              setSelection(next.selected, next.removed);
            }}
          >
            {t('suggester.removeSelected')}
          </Button>
          {state.removed.length > 0 && (
            <Button variant="subtle" size="xs" onClick={() => setSelection(state.selected, [])}>
              {t('suggester.restoreRemoved')}
            </Button>
          )}
        </Group>
      </Group>

      <Card withBorder padding={0}>
        <Box style={{ overflow: 'auto', maxHeight: 'calc(100vh - 360px)', minHeight: 200 }}>
          <Table stickyHeader highlightOnHover verticalSpacing={8} data-testid="keyword-table">
            <Table.Thead style={{ background: 'var(--mantine-color-gray-0)' }}>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    size="xs"
                    checked={allShown}
                    indeterminate={someShown}
                    onChange={(e) => setSelection(toggleSelection(state.selected, shown, e.currentTarget.checked))}
                    aria-label={t('suggester.selectShown')}
                  />
                </Table.Th>
                {table.getHeaderGroups()[0]!.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const Icon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
                  const label = String((header.column.columnDef.header as () => string)());
                  const help = HELP[header.id];
                  return (
                    <Table.Th key={header.id} style={{ textAlign: NUMERIC.has(header.id) ? 'right' : undefined }}>
                      {header.column.getCanSort() ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} aria-label={label} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                          <HeaderLabel label={label} help={help ? t(help) : undefined} />
                          <Icon size={13} color={sorted ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'} aria-hidden />
                        </UnstyledButton>
                      ) : (
                        <HeaderLabel label={label} />
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {table.getRowModel().rows.map((row) => {
                const keyword = row.original;
                const selected = selectedNames.has(keyword.name);
                return (
                  <Table.Tr key={row.id} bg={selected ? 'var(--mantine-color-blue-0)' : undefined} data-selected={selected || undefined}>
                    <Table.Td>
                      <Checkbox
                        size="xs"
                        checked={selected}
                        onChange={(e) => setSelection(toggleSelection(state.selected, [keyword], e.currentTarget.checked))}
                        aria-label={`${t('suggester.selectRow')} ${keyword.name}`}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm" fw={600}>
                          {keyword.name}
                        </Text>
                        {keyword.required && (
                          <Badge size="xs" variant="outline" color="grape" tt="none">
                            {t('suggester.required.badge')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <PopularityCell keyword={keyword} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {keyword.sources.map((source, i) => (
                          <SourceBadge key={`${source.type}/${source.adamId ?? i}`} source={source} />
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                      {estimating ? <EstimatePending /> : <Text size="sm">{formatNumber(keyword.impressions, 0)}</Text>}
                    </Table.Td>
                    <Table.Td>
                      <AccountCell keyword={keyword} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
              {shown.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length + 1}>
                    <Text size="sm" c="dimmed" ta="center" py="lg">
                      {t('suggester.noMatch')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Box>
      </Card>
      {pages > 1 && (
        <Group justify="flex-end">
          <Pagination total={pages} value={pagination.pageIndex + 1} onChange={(page) => setPagination((p) => ({ ...p, pageIndex: page - 1 }))} size="sm" />
        </Group>
      )}
    </Stack>
  );
}
