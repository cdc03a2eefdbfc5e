/**
 * Under a level's table: which rows of how many the page shows, the page-size menu (50 by
 * default, docs/product.md#2-tables; longer pages render only the rows in view) and the
 * pages.
 */
import { Group, Pagination, Select, Text } from '@mantine/core';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { PAGE_SIZES, type TableState } from '../url-state';

export function TableFooter({ total, state, onChange }: { total: number; state: TableState; onChange: (next: Partial<TableState>) => void }) {
  const pages = Math.max(1, Math.ceil(total / state.size));
  const first = total > 0 ? (state.page - 1) * state.size + 1 : 0;
  const last = Math.min(state.page * state.size, total);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" data-testid="row-range">
        {formatNumber(first, 0)}–{formatNumber(last, 0)} {t('table.of')} {tn('table.rowCount', total, formatNumber(total, 0))}
      </Text>
      <Group gap="sm">
        <Select
          size="xs"
          w={130}
          aria-label={t('table.pageSize')}
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} ${t('table.perPage')}` }))}
          value={String(state.size)}
          onChange={(v) => v && onChange({ size: Number(v), page: 1 })}
          allowDeselect={false}
          data-testid="page-size"
        />
        {pages > 1 && <Pagination total={pages} value={Math.min(state.page, pages)} onChange={(page) => onChange({ page })} size="sm" />}
      </Group>
    </Group>
  );
}
