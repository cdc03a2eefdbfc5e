/**
 * Saving column presets (docs/product.md#7-the-calls-it-makes setFields): PUT /api/setFields/one
 * {fields, name, type} creates one, PATCH /api/setFields/one/{id} renames it or changes its
 * columns, DELETE /api/setFields/one/{id} deletes it. Each refreshes the type's list.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PresetBody } from '@/api/generated/types.gen';
import { zEnvelopeItemColumnPreset } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import type { Level } from '../paths';
import type { ColumnPreset } from './column-presets';
import { optimizationKeys } from './keys';

const itemSchema = zEnvelopeItemColumnPreset.shape.result;

export async function createColumnPreset(level: Level, name: string, fields: string[]): Promise<ColumnPreset> {
  const { item } = await api.put('/setFields/one', { type: level, name, fields } satisfies PresetBody, itemSchema);
  return item;
}

export async function updateColumnPreset(id: string, change: { name?: string; fields?: string[] }): Promise<ColumnPreset> {
  const { item } = await api.patch(`/setFields/one/${encodeURIComponent(id)}`, { id, ...change }, itemSchema);
  return item;
}

export async function deleteColumnPreset(id: string): Promise<ColumnPreset> {
  const { item } = await api.delete(`/setFields/one/${encodeURIComponent(id)}`, itemSchema);
  return item;
}

export function useColumnPresetMutations(level: Level) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: optimizationKeys.presets(level) });
  return {
    create: useMutation({ mutationFn: ({ name, fields }: { name: string; fields: string[] }) => createColumnPreset(level, name, fields), onSuccess: refresh }),
    update: useMutation({ mutationFn: ({ id, ...change }: { id: string; name?: string; fields?: string[] }) => updateColumnPreset(id, change), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: string) => deleteColumnPreset(id), onSuccess: refresh }),
  };
}
