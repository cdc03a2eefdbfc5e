/**
 * Column presets (docs/product.md#2-tables edit-columns modal, docs/product.md#3-column-preset,
 * docs/product.md#7-the-calls-it-makes setFields): GET /api/setFields/all/{type} lists the built-in
 * Default and the user's saved presets of a table type; GET /api/setFields/fields/{type} the
 * columns the type can show, grouped (Attributes, Metrics, Conversions) with their Growth/Pro
 * locks.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { type zColumnGroup, zColumnInfo, zColumnPreset, zEnvelopeItemsColumnGroup, zEnvelopeItemsColumnPreset } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Level } from '../paths';
import { optimizationKeys } from './keys';

export const columnPresetSchema = zColumnPreset;
export type ColumnPreset = z.infer<typeof columnPresetSchema>;

const presetsSchema = zEnvelopeItemsColumnPreset.shape.result;

export const columnInfoSchema = zColumnInfo;
export type ColumnInfo = z.infer<typeof columnInfoSchema>;

const groupsSchema = zEnvelopeItemsColumnGroup.shape.result;
export type ColumnGroup = z.infer<typeof zColumnGroup>;

export async function getColumnPresets(level: Level, { signal }: CallOptions = {}): Promise<ColumnPreset[]> {
  const { items } = await api.get(`/setFields/all/${level}`, presetsSchema, { signal });
  return items;
}

export async function getColumnGroups(level: Level, { signal }: CallOptions = {}): Promise<ColumnGroup[]> {
  const { items } = await api.get(`/setFields/fields/${level}`, groupsSchema, { signal });
  return items;
}

export function useColumnPresets(level: Level) {
  return useQuery({
    queryKey: optimizationKeys.presets(level),
    queryFn: ({ signal }) => getColumnPresets(level, { signal }),
    staleTime: 300_000,
  });
}

export function useColumnGroups(level: Level, enabled = true) {
  return useQuery({
    queryKey: optimizationKeys.columnGroups(level),
    queryFn: ({ signal }) => getColumnGroups(level, { signal }),
    staleTime: 300_000,
    enabled,
  });
}
