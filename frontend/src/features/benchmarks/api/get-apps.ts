/**
 * `GET benchmarks/apps` (any role; docs/api/benchmarks.md): the apps of the workspace's synced
 * campaign groups and campaigns, with their currency and how many targets of each kind they have.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsBenchmarkApp, type zBenchmarkApp } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { benchmarksKeys } from './keys';

export type BenchmarkApp = z.infer<typeof zBenchmarkApp>;

export async function getApps({ signal }: CallOptions = {}): Promise<BenchmarkApp[]> {
  const { items } = await api.get('/benchmarks/apps', zEnvelopeItemsBenchmarkApp.shape.result, { signal });
  return items;
}

export function useBenchmarkApps() {
  return useQuery({ queryKey: benchmarksKeys.apps(), queryFn: ({ signal }) => getApps({ signal }) });
}
