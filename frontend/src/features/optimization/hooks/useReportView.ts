/**
 * What every report screen (All accounts, campaign groups and the drill-down levels) keeps of
 * its table besides the report itself: the address-kept table state with its updater, the
 * level's row id, and the rows selected in the current view (a new view — another level,
 * scope, range or filter set — starts with none).
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ReportRow } from '../api/report';
import { ID_FIELD } from '../columns';
import type { Level } from '../paths';
import { readTableState, writeTableState, type TableState } from '../url-state';

const NONE: ReadonlySet<string> = new Set();

/** The table state in the address as of `today`, and its updater (merged into the address). */
export function useTableState(today: string) {
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => readTableState(search, today), [search, today]);
  const update = useCallback(
    (next: Partial<TableState>) => setSearch((current) => writeTableState({ ...readTableState(current, today), ...next }, current)),
    [setSearch, today],
  );
  const onSort = useCallback((sort: TableState['sort']) => update({ sort, page: 1 }), [update]);
  return { search, state, update, onSort };
}

/** The id field of `level`'s rows and a reader of it (null for a row without one). */
export function useRowId(level: Level) {
  const idField = ID_FIELD[level] ?? 'id';
  const rowId = useCallback(
    (row: ReportRow) => {
      const value = row[idField];
      return typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : null;
    },
    [idField],
  );
  return { idField, rowId };
}

/** The rows selected in the view named by `scope`; selecting in another view starts afresh. */
export function useSelection(scope: string) {
  const [selection, setSelection] = useState<{ scope: string; ids: ReadonlySet<string> }>({ scope, ids: new Set() });
  const selected = selection.scope === scope ? selection.ids : NONE;
  const onSelect = useCallback(
    (ids: string[], on: boolean) =>
      setSelection((current) => {
        const next = new Set(current.scope === scope ? current.ids : []);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return { scope, ids: next };
      }),
    [scope],
  );
  const clear = useCallback(() => setSelection({ scope, ids: new Set() }), [scope]);
  return { selected, onSelect, clear };
}
