/**
 * `GET users/one/connect/appStore/{id}/proceeds?from&through` (any role; ours, beyond the spec;
 * docs/api/app-store-connect.md "Proceeds"): per app and day the units sold and the developer's
 * proceeds in Apple's currency of proceeds.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeItemsAppDayProceeds, type zAppDayProceeds } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { appStoreKeys } from './get-app-store-connections';

export type AppDayProceeds = z.infer<typeof zAppDayProceeds>;

export async function getAppStoreProceeds(id: string, from: string, through: string, { signal }: CallOptions = {}): Promise<AppDayProceeds[]> {
  const query = new URLSearchParams({ from, through }).toString();
  const { items } = await api.get(`/users/one/connect/appStore/${encodeURIComponent(id)}/proceeds?${query}`, zEnvelopeItemsAppDayProceeds.shape.result, { signal });
  return items;
}

/** One app's totals over a range, per currency of proceeds. */
export interface AppTotal {
  adamId: number;
  appName: string;
  currency: string;
  units: number;
  proceeds: number;
}

/** Sums `rows` per app and currency, the best-earning first. */
export function totalsByApp(rows: AppDayProceeds[]): AppTotal[] {
  const sums = new Map<string, AppTotal>();
  for (const r of rows) {
    const key = `${r.adamId}:${r.currency}`;
    const sum = sums.get(key) ?? { adamId: r.adamId, appName: r.appName, currency: r.currency, units: 0, proceeds: 0 };
    sum.units += r.units;
    sum.proceeds = Math.round((sum.proceeds + r.proceeds) * 100) / 100;
    sums.set(key, sum);
  }
  return [...sums.values()].sort((a, b) => b.proceeds - a.proceeds || a.appName.localeCompare(b.appName));
}

export function useAppStoreProceeds(id: string, from: string, through: string, enabled: boolean) {
  return useQuery({ queryKey: appStoreKeys.proceeds(id, from, through), queryFn: ({ signal }) => getAppStoreProceeds(id, from, through, { signal }), enabled });
}
