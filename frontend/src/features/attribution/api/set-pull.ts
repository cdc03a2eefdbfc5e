/**
 * `PUT attribution/integrations/{provider}/pull` (owner, admin, writer; docs/api/attribution.md,
 * "Pull"): sets or replaces the API token of the provider's reporting API with the app ids,
 * currency and event names to read. The answer is the integration with the token masked; the
 * backfill of the last 30 days starts at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeItemIntegrationItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Integration } from './get-integrations';
import { afterIntegrationWrite } from './integration-write';

/** The form's values: app ids and events as the user types them, comma- or space-separated. */
export const setPullInputSchema = z.object({
  token: z.string().trim().min(1, 'Paste the API token'),
  appIds: z
    .string()
    .trim()
    .min(1, 'Give at least one AppsFlyer app id')
    .transform((s) => s.split(/[\s,]+/).filter(Boolean)),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'An ISO 4217 currency code, e.g. USD')
    .transform((s) => s.toUpperCase()),
  events: z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean)),
});

export type SetPullInput = z.output<typeof setPullInputSchema>;

export async function setPull(provider: string, input: SetPullInput, { signal }: CallOptions = {}): Promise<Integration> {
  const body = { ...input, events: input.events.length > 0 ? input.events : undefined };
  const { item } = await api.put(`/attribution/integrations/${encodeURIComponent(provider)}/pull`, body, zEnvelopeItemIntegrationItem.shape.result, { signal });
  return item;
}

export function useSetPull(provider: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (input: SetPullInput) => setPull(provider, input), onSuccess: afterIntegrationWrite(client) });
}
