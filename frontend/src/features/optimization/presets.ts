/**
 * Preset rules (docs/product.md#5-column-presets, docs/product.md#9-tables-and-notifications), free
 * of React: column presets (the built-in Default and at most 10 saved per table type, names
 * required and unique, the selected one per type falling back to Default) and filter presets (saved
 * in the user's options under `optimization-filters-presets` as `{name, type, filters}`, at most 10
 * per type).
 */
import type { ColumnPreset } from './api/column-presets';
import { nameColumn } from './columns';
import { parseFilter, type Filter } from './filters';
import type { Level } from './paths';

/** Most presets saved per type, besides Default (docs/product.md#9-tables-and-notifications). */
export const MAX_PRESETS = 10;
/** Longest preset name the server keeps. */
export const MAX_PRESET_NAME = 50;
/** The options keys of the filter presets and of the selected column preset per type. */
export const FILTER_PRESETS_OPTION = 'optimization-filters-presets';
export const SELECTED_COLUMNS_OPTION = 'optimization-column-presets';

export type NameProblem = 'required' | 'taken' | 'tooLong' | null;

/** What is wrong with `name` as a new name among `names` (case-insensitive; Default is taken). */
export function presetNameProblem(name: string, names: string[], current?: string): NameProblem {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > MAX_PRESET_NAME) return 'tooLong';
  const lower = trimmed.toLowerCase();
  const others = names.filter((n) => current === undefined || n.toLowerCase() !== current.toLowerCase());
  if (lower === 'default' || others.some((n) => n.trim().toLowerCase() === lower)) return 'taken';
  return null;
}

/** Whether another preset may be saved: fewer than MAX_PRESETS besides Default. */
export function canSaveColumnPreset(presets: ColumnPreset[]): boolean {
  return presets.filter((p) => !p.isDefault).length < MAX_PRESETS;
}

/** The selected preset: the one with `selectedId`, else Default (docs/product.md#4-other). */
export function selectedPreset(presets: ColumnPreset[], selectedId: string | null | undefined): ColumnPreset | undefined {
  return presets.find((p) => p._id === selectedId) ?? presets.find((p) => p.isDefault);
}

/** The columns a preset shows on `level`: its fields in order, the name column first. */
export function presetColumns(level: Level, fields: string[]): string[] {
  const name = nameColumn(level);
  if (name === null) return fields;
  return [name, ...fields.filter((f) => f !== name)];
}

export interface FilterPreset {
  name: string;
  type: Level;
  filters: Filter[];
}

const LEVELS: Level[] = ['ACCOUNTS', 'ORGS', 'CAMPAIGNS', 'GROUPS', 'KEYWORDS', 'NEGATIVE', 'SEARCHTERMS', 'ADS'];

/** The saved filter presets (the option's JSON), dropping what cannot be read. */
export function readFilterPresets(option: unknown): FilterPreset[] {
  if (!Array.isArray(option)) return [];
  return option.flatMap((raw: unknown): FilterPreset[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const { name, type, filters } = raw as Record<string, unknown>;
    if (typeof name !== 'string' || !LEVELS.includes(type as Level) || !Array.isArray(filters)) return [];
    const parsed = filters.map(parseFilter);
    if (parsed.some((f) => f === null)) return [];
    return [{ name, type: type as Level, filters: parsed as Filter[] }];
  });
}

export function filterPresetsOf(presets: FilterPreset[], level: Level): FilterPreset[] {
  return presets.filter((p) => p.type === level);
}

export function canSaveFilterPreset(presets: FilterPreset[], level: Level): boolean {
  return filterPresetsOf(presets, level).length < MAX_PRESETS;
}

/** The list with `preset` added, or the problem that refuses it. */
export function addFilterPreset(presets: FilterPreset[], preset: FilterPreset): FilterPreset[] | 'limit' | Exclude<NameProblem, null> | 'empty' {
  const own = filterPresetsOf(presets, preset.type);
  if (own.length >= MAX_PRESETS) return 'limit';
  const problem = presetNameProblem(preset.name, own.map((p) => p.name));
  if (problem) return problem;
  if (preset.filters.length === 0) return 'empty';
  return [...presets, { ...preset, name: preset.name.trim() }];
}

export function removeFilterPreset(presets: FilterPreset[], level: Level, name: string): FilterPreset[] {
  return presets.filter((p) => !(p.type === level && p.name === name));
}
