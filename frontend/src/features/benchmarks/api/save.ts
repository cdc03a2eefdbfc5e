/**
 * The three writes (owner, admin, writer; docs/api/benchmarks.md): `PATCH benchmarks/installs/many`,
 * `events/many` and `revenues/many`, each all or nothing (one bad item answers 400 naming
 * `items.N.field` and stores nothing). A success reads the app's targets and the app list again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  zEnvelopeItemsEventTarget,
  zEnvelopeItemsInstallTarget,
  zEnvelopeItemsRoasTarget,
  type zSetEvents,
  type zSetInstalls,
  type zSetRoases,
} from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import { benchmarksKeys } from './keys';

export type SetInstalls = z.infer<typeof zSetInstalls>;
export type SetEvents = z.infer<typeof zSetEvents>;
export type SetRoases = z.infer<typeof zSetRoases>;

function useSave<B>(adamId: string, send: (body: B) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: benchmarksKeys.app(adamId) }), client.invalidateQueries({ queryKey: benchmarksKeys.apps() })]);
    },
  });
}

export const useSaveInstalls = (adamId: string) =>
  useSave(adamId, (body: SetInstalls) => api.patch('/benchmarks/installs/many', body, zEnvelopeItemsInstallTarget.shape.result));

export const useSaveEvents = (adamId: string) =>
  useSave(adamId, (body: SetEvents) => api.patch('/benchmarks/events/many', body, zEnvelopeItemsEventTarget.shape.result));

export const useSaveRoas = (adamId: string) =>
  useSave(adamId, (body: SetRoases) => api.patch('/benchmarks/revenues/many', body, zEnvelopeItemsRoasTarget.shape.result));
