/**
 * `PUT users/one/connect/appStore` (owner, admin, writer; multipart; docs/api/app-store-connect.md):
 * the issuer id, key id, vendor number and the `.p8` file as `key`. The server checks the key
 * with App Store Connect before storing it and names the refused field; the 30-day backfill
 * starts at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeItemAppStoreConnectionItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { appStoreKeys, type AppStoreConnection } from './get-app-store-connections';

/** The form's values, checked as the server checks them. */
export const connectAppStoreInputSchema = z.object({
  issuerId: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'The issuer id is a UUID, e.g. 57246542-96fe-1a63-e053-0824d011072a'),
  keyId: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{10}$/, 'The key id is 10 uppercase letters or digits, e.g. 2X9R4HXF34'),
  vendorNumber: z
    .string()
    .trim()
    .regex(/^[0-9]{1,12}$/, 'The vendor number is digits, e.g. 80012345'),
  key: z.instanceof(File, { message: 'Choose the .p8 file App Store Connect gave for the key' }).nullable().refine((f) => f !== null, 'Choose the .p8 file App Store Connect gave for the key'),
});

export type ConnectAppStoreValues = z.input<typeof connectAppStoreInputSchema>;
export type ConnectAppStoreInput = z.output<typeof connectAppStoreInputSchema>;

export async function connectAppStore(input: ConnectAppStoreInput, { signal }: CallOptions = {}): Promise<AppStoreConnection> {
  const body = new FormData();
  body.append('issuerId', input.issuerId);
  body.append('keyId', input.keyId);
  body.append('vendorNumber', input.vendorNumber);
  if (input.key) body.append('key', input.key, input.key.name);
  const { item } = await api.put('/users/one/connect/appStore', body, zEnvelopeItemAppStoreConnectionItem.shape.result, { signal });
  return item;
}

export function useConnectAppStore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectAppStoreInput) => connectAppStore(input),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: appStoreKeys.all });
    },
  });
}
