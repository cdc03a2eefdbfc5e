/**
 * The presets kept in the user's saved options (options/front): the selected column preset
 * per table type, and the filter presets. Saving writes only its own key, from that key's
 * current value and based on the version read (`If-Match`): a preset another tab saved in
 * between is kept, not overwritten.
 */
import { useCallback, useMemo } from 'react';
import { useFrontOptions, useUpdateFrontOption } from '@/features/options';
import type { Level } from '../paths';
import { FILTER_PRESETS_OPTION, readFilterPresets, SELECTED_COLUMNS_OPTION, type FilterPreset } from '../presets';

function selectionOf(option: unknown): Record<string, string> {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return {};
  return Object.fromEntries(Object.entries(option).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function useSelectedPresetId(level: Level) {
  const options = useFrontOptions();
  const put = useUpdateFrontOption();
  const selection = useMemo(() => selectionOf(options.data?.[SELECTED_COLUMNS_OPTION]), [options.data]);
  const select = useCallback(
    (id: string) => put.mutateAsync({ key: SELECTED_COLUMNS_OPTION, update: (current) => ({ ...selectionOf(current), [level]: id }) }),
    [put, level],
  );
  return { selectedId: selection[level] ?? null, loading: options.isLoading, select };
}

export function useFilterPresets() {
  const options = useFrontOptions();
  const put = useUpdateFrontOption();
  const presets = useMemo(() => readFilterPresets(options.data?.[FILTER_PRESETS_OPTION]), [options.data]);
  /** Saves `change` applied to the saved presets (it may throw to refuse them). */
  const save = useCallback(
    (change: (current: FilterPreset[]) => FilterPreset[]) => put.mutateAsync({ key: FILTER_PRESETS_OPTION, update: (current) => change(readFilterPresets(current)) }),
    [put],
  );
  return { presets, save, saving: put.isPending };
}
