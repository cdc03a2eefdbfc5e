/**
 * The columns a level's table shows: those of the selected column preset (spec §4 Other:
 * selected per type, falling back to Default), the name column first. Until the presets
 * load, the level's columns without the hidden-by-default ones.
 */
import { useMemo } from 'react';
import { useColumnPresets, type ColumnPreset } from '../api/column-presets';
import { columnsOf } from '../columns';
import type { Level } from '../paths';
import { presetColumns, selectedPreset } from '../presets';
import { useSelectedPresetId } from './usePresetOptions';

/** Spec §2 Tables: hidden by default. */
const HIDDEN = new Set(['rules', 'totalRevenue', 'trackedInstalls', 'organicSearch', 'auctionInsights']);

export interface VisibleColumns {
  fields: string[];
  presets: ColumnPreset[];
  selected: ColumnPreset | undefined;
  select: (id: string) => Promise<unknown>;
}

export function useVisibleColumns(level: Level): VisibleColumns {
  const presets = useColumnPresets(level);
  const { selectedId, select } = useSelectedPresetId(level);
  const selected = presets.data ? selectedPreset(presets.data, selectedId) : undefined;
  const fields = useMemo(
    () => (selected ? presetColumns(level, selected.fields) : columnsOf(level).map((c) => c.field).filter((f) => !HIDDEN.has(f))),
    [level, selected],
  );
  return { fields, presets: presets.data ?? [], selected, select };
}
