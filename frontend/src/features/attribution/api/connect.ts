/**
 * `POST attribution/integrations/{provider}` (owner, admin, writer): connects a provider and
 * answers its postback URL with the token (and the custom server's secret), shown this once
 * (docs/api/attribution.md). The list's cached entry becomes the answer's item; the URL itself
 * is kept only by the screen that asked.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeConnected } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { afterIntegrationWrite } from './integration-write';

const connectedSchema = zEnvelopeConnected.shape.result;
/** A new postback URL (`setup.url` with the token) and, for `custom`, the signing secret. */
export type Connected = z.infer<typeof connectedSchema>;

export async function connect(provider: string, { signal }: CallOptions = {}): Promise<Connected> {
  return api.post(`/attribution/integrations/${encodeURIComponent(provider)}`, undefined, connectedSchema, { signal });
}

export function useConnect() {
  const onAnswer = afterIntegrationWrite(useQueryClient());
  return useMutation({
    mutationFn: (provider: string) => connect(provider),
    onSuccess: ({ item }) => onAnswer(item),
  });
}
