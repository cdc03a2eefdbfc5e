/**
 * An Apple Ads connection (spec §3 Account) and its campaign groups ("orgs", v1 ad
 * accounts) as `account/*` and `asa/*` answer them. Never carries a secret.
 */
import { z } from 'zod';
import { entityIdSchema } from '@/lib/ids';

export const orgSchema = z.object({
  /** Ids are strings of digits (see lib/ids). */
  orgId: entityIdSchema,
  displayName: z.string(),
  currency: z.string().nullable(),
  timeZone: z.string().nullable(),
  permission: z.string(),
  selected: z.boolean(),
});
export type Org = z.infer<typeof orgSchema>;

export const accountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** `key` (API key pair) or `oauth` (Continue with Apple). */
  method: z.string(),
  clientId: z.string(),
  teamId: z.string().nullable(),
  keyId: z.string().nullable(),
  publicKey: z.string().nullable(),
  appleUserId: entityIdSchema,
  /** The campaign groups the connection uses. */
  acls: z.array(orgSchema),
  createdAt: z.string(),
  /** When data was last synced; null (or absent on older servers) until the first sync. */
  lastSyncedAt: z.string().nullable().optional(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountResultSchema = z.object({ item: accountSchema });
export const accountsResultSchema = z.object({ items: z.array(accountSchema) });

/** Longest account name (spec §9). */
export const ACCOUNT_NAME_MAX = 30;
