/**
 * The columns a level's table shows: those of the selected column preset (docs/product.md#4-other:
 * selected per type, falling back to Default), the name column first. Until the presets
 * load, the level's columns without the hidden-by-default ones. Default leaves out the
 * columns the user's plan does not show (the report's `locked`, e.g. Growth's Quality and
 * Optimization columns): they would be all dashes. The columns modal still lists them with
 * their plan's badge, and a saved preset that chose them shows them as chosen.
 */
import { useMemo } from 'react';
import { HIDDEN_BY_DEFAULT } from '@/lib/report-catalog';
import { useColumnPresets, type ColumnPreset } from '../api/column-presets';
import { columnsOf } from '../columns';
import type { Level } from '../paths';
import { presetColumns, selectedPreset } from '../presets';
import { useSelectedPresetId } from './usePresetOptions';

/** docs/product.md#2-tables: hidden by default (the report catalog's list). */
const HIDDEN = new Set(HIDDEN_BY_DEFAULT);

export interface VisibleColumns {
  fields: string[];
  presets: ColumnPreset[];
  selected: ColumnPreset | undefined;
  select: (id: string) => Promise<unknown>;
}

/** The columns shown of `fields`: without `locked` ones when the preset is Default (or none yet). */
export function shownColumns(fields: string[], preset: ColumnPreset | undefined, locked: readonly string[] | undefined): string[] {
  if (!locked || locked.length === 0 || (preset && !preset.isDefault)) return fields;
  const hidden = new Set(locked);
  return fields.filter((field, index) => index === 0 || !hidden.has(field));
}

export function useVisibleColumns(level: Level, locked?: readonly string[]): VisibleColumns {
  const presets = useColumnPresets(level);
  const { selectedId, select } = useSelectedPresetId(level);
  const selected = presets.data ? selectedPreset(presets.data, selectedId) : undefined;
  // The answer's list is a new array each time; the columns change only with its contents.
  const lockedKey = locked?.join(',') ?? '';
  const fields = useMemo(
    () => shownColumns(selected ? presetColumns(level, selected.fields) : columnsOf(level).map((c) => c.field).filter((f) => !HIDDEN.has(f)), selected, lockedKey === '' ? [] : lockedKey.split(',')),
    [level, selected, lockedKey],
  );
  return { fields, presets: presets.data ?? [], selected, select };
}
