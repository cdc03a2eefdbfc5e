/**
 * `POST attribution/integrations/{provider}/rotate` (owner, admin, writer): a new postback URL
 * (and, for the custom server, a new secret), shown once; the old URL answers 404 at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zEnvelopeConnected } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import type { Connected } from './connect';
import { afterIntegrationWrite } from './integration-write';

export async function rotate(provider: string, { signal }: CallOptions = {}): Promise<Connected> {
  return api.post(`/attribution/integrations/${encodeURIComponent(provider)}/rotate`, undefined, zEnvelopeConnected.shape.result, { signal });
}

export function useRotate() {
  const onAnswer = afterIntegrationWrite(useQueryClient());
  return useMutation({
    mutationFn: (provider: string) => rotate(provider),
    onSuccess: ({ item }) => onAnswer(item),
  });
}
