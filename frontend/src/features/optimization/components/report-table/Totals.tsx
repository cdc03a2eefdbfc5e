/**
 * The report table's footer: the totals row (money left out over several currencies), a
 * "Total in <currency>" row per currency, and with a reporting currency a "≈ Total in
 * <currency>" row of the money converted, its cells titled with the rates used.
 */
import { Table, Text } from '@mantine/core';
import { t, tn } from '@/i18n';
import { EMPTY, formatNumber } from '@/lib/format';
import type { Converted, ReportResult } from '../../api/report';
import { mixesCurrencies, type ColumnDef } from '../../columns';
import type { Level } from '../../paths';
import { convertedNote } from '../../reporting-currency';
import { Cell } from '../cells';
import { footCell, HEAD_BG, hasNumbers, numeric, selectCell } from './layout';
import { SyncingText } from './RowCells';

interface TotalsProps {
  level: Level;
  result: ReportResult;
  /** The visible columns, in order. */
  defs: ColumnDef[];
  currency: string | null;
}

export function Totals({ level, result, defs, currency }: TotalsProps) {
  return (
    <Table.Tfoot style={{ position: 'sticky', bottom: 0, zIndex: 2, background: HEAD_BG }}>
      <Table.Tr data-testid="totals-row">
        <Table.Td style={selectCell(HEAD_BG)} />
        {defs.map((def, index) => {
          const totals: Record<string, unknown> | null | undefined = result.totals;
          const value = totals?.[def.field];
          return (
            <Table.Td key={def.field} fw={700} style={footCell(index, def)}>
              {index === 0 ? (
                <>
                  {t('table.total')}{' '}
                  <Text span size="xs" c="dimmed" fw={400}>
                    ({tn('table.rowCount', result.total, formatNumber(result.total, 0))})
                  </Text>
                </>
              ) : result.syncing && numeric(def) && !hasNumbers(result.totals ?? {}, defs) ? (
                <SyncingText />
              ) : def.kind === 'money' && mixesCurrencies(level, currency) ? (
                <span title={t('table.mixedCurrencies')}>{EMPTY}</span>
              ) : numeric(def) && result.totals && def.field in result.totals ? (
                <Cell level={level} column={def} value={value} currency={currency} />
              ) : null}
            </Table.Td>
          );
        })}
      </Table.Tr>
      {(result.subtotals ?? []).map((sub) => {
        const code = typeof sub.currency === 'string' ? sub.currency : null;
        return (
          <Table.Tr key={code ?? 'none'} data-testid="subtotal-row" data-currency={code ?? undefined}>
            <Table.Td style={selectCell(HEAD_BG)} />
            {defs.map((def, index) => (
              <Table.Td key={def.field} style={footCell(index, def)}>
                {index === 0 ? (
                  <Text span size="sm" fw={600}>
                    {t('table.subtotal').replace('{currency}', code ?? EMPTY)}
                  </Text>
                ) : numeric(def) && def.field in sub ? (
                  <Cell level={level} column={def} value={sub[def.field]} currency={code} />
                ) : null}
              </Table.Td>
            ))}
          </Table.Tr>
        );
      })}
      {result.converted && <ConvertedRow converted={result.converted} level={level} defs={defs} />}
    </Table.Tfoot>
  );
}

/** The totals' money converted to the reporting currency, each amount titled with its rates. */
function ConvertedRow({ converted, level, defs }: { converted: Converted; level: Level; defs: ColumnDef[] }) {
  const note = convertedNote(converted);
  return (
    <Table.Tr data-testid="converted-row" data-currency={converted.currency}>
      <Table.Td style={selectCell(HEAD_BG)} />
      {defs.map((def, index) => (
        <Table.Td key={def.field} style={footCell(index, def)}>
          {index === 0 ? (
            <Text span size="sm" fw={600} fs="italic" title={note}>
              {`≈ ${t('table.subtotal').replace('{currency}', converted.currency)}`}
            </Text>
          ) : def.kind === 'money' ? (
            <span title={note}>
              {converted.totals[def.field] === null || converted.totals[def.field] === undefined ? EMPTY : '≈ '}
              <Cell level={level} column={def} value={converted.totals[def.field]} currency={converted.currency} />
            </span>
          ) : null}
        </Table.Td>
      ))}
    </Table.Tr>
  );
}
