/**
 * The three reads of one app's targets (any role; docs/api/benchmarks.md): `GET
 * benchmarks/installs/getAll/{adamId}`, `events/getAll/{adamId}/{eventName}` and
 * `revenues/getAll/{adamId}`, each with the published reference figures for the app's category.
 */
import { skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  zEnvelopeBenchmarksEventTarget,
  zEnvelopeBenchmarksInstallTarget,
  zEnvelopeBenchmarksRoasTarget,
  type zEventTarget,
  type zInstallTarget,
  type zReferenceFigure,
  type zRoasTarget,
} from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { benchmarksKeys } from './keys';

export type InstallTarget = z.infer<typeof zInstallTarget>;
export type EventTarget = z.infer<typeof zEventTarget>;
export type RoasTarget = z.infer<typeof zRoasTarget>;
export type ReferenceFigure = z.infer<typeof zReferenceFigure>;
export type InstallBenchmarks = z.infer<typeof zEnvelopeBenchmarksInstallTarget.shape.result>;
export type EventBenchmarks = z.infer<typeof zEnvelopeBenchmarksEventTarget.shape.result>;
export type RoasBenchmarks = z.infer<typeof zEnvelopeBenchmarksRoasTarget.shape.result>;

const path = (kind: string, adamId: string) => `/benchmarks/${kind}/getAll/${encodeURIComponent(adamId)}`;

export function getInstalls(adamId: string, { signal }: CallOptions = {}): Promise<InstallBenchmarks> {
  return api.get(path('installs', adamId), zEnvelopeBenchmarksInstallTarget.shape.result, { signal });
}

export function getEvents(adamId: string, eventName: string, { signal }: CallOptions = {}): Promise<EventBenchmarks> {
  return api.get(`${path('events', adamId)}/${encodeURIComponent(eventName)}`, zEnvelopeBenchmarksEventTarget.shape.result, { signal });
}

export function getRevenues(adamId: string, { signal }: CallOptions = {}): Promise<RoasBenchmarks> {
  return api.get(path('revenues', adamId), zEnvelopeBenchmarksRoasTarget.shape.result, { signal });
}

export function useInstallTargets(adamId: string) {
  return useQuery({ queryKey: benchmarksKeys.installs(adamId), queryFn: ({ signal }) => getInstalls(adamId, { signal }) });
}

/** The targets of event `eventName` (nothing is read until an event is picked). */
export function useEventTargets(adamId: string, eventName: string | null) {
  return useQuery({
    queryKey: benchmarksKeys.events(adamId, eventName ?? ''),
    queryFn: eventName ? ({ signal }) => getEvents(adamId, eventName, { signal }) : skipToken,
  });
}

export function useRoasTargets(adamId: string) {
  return useQuery({ queryKey: benchmarksKeys.revenues(adamId), queryFn: ({ signal }) => getRevenues(adamId, { signal }) });
}
