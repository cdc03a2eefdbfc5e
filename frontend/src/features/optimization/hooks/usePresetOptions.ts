/**
 * The presets kept in the user's saved options (options/front): the selected column preset
 * per table type, and the filter presets. Saving merges only the key it writes.
 */
import { useCallback, useMemo } from 'react';
import { useFrontOptions, usePutFrontOptions } from '@/features/options';
import type { Level } from '../paths';
import { FILTER_PRESETS_OPTION, readFilterPresets, SELECTED_COLUMNS_OPTION, type FilterPreset } from '../presets';

function selectionOf(option: unknown): Record<string, string> {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return {};
  return Object.fromEntries(Object.entries(option).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function useSelectedPresetId(level: Level) {
  const options = useFrontOptions();
  const put = usePutFrontOptions();
  const selection = useMemo(() => selectionOf(options.data?.[SELECTED_COLUMNS_OPTION]), [options.data]);
  const select = useCallback(
    (id: string) => put.mutateAsync({ [SELECTED_COLUMNS_OPTION]: { ...selection, [level]: id } }),
    [put, selection, level],
  );
  return { selectedId: selection[level] ?? null, loading: options.isLoading, select };
}

export function useFilterPresets() {
  const options = useFrontOptions();
  const put = usePutFrontOptions();
  const presets = useMemo(() => readFilterPresets(options.data?.[FILTER_PRESETS_OPTION]), [options.data]);
  const save = useCallback((next: FilterPreset[]) => put.mutateAsync({ [FILTER_PRESETS_OPTION]: next }), [put]);
  return { presets, save, saving: put.isPending };
}
