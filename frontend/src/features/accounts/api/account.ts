/**
 * An Apple Ads connection (docs/product.md#3-account) and its campaign groups ("orgs", v1 ad
 * accounts) as `account/*` and `asa/*` answer them. Never carries a secret.
 */
import type { z } from 'zod';
import { zAccountItem, zEnvelopeItemAccountItem, zEnvelopeItemsAccountItem, zOrgRow } from '@/api/generated/zod.gen';

/** A campaign group of a connection (the document's `OrgRow`; ids are strings of digits). */
export const orgSchema = zOrgRow;
export type Org = z.infer<typeof orgSchema>;

/**
 * A connection (the document's `AccountItem`): `method` is `key` (API key pair) or `oauth`
 * (Continue with Apple); `lastSyncedAt` null until the first sync, `nextSyncAt` when the
 * scheduler syncs it next.
 */
export const accountSchema = zAccountItem;
export type Account = z.infer<typeof accountSchema>;

export const accountResultSchema = zEnvelopeItemAccountItem.shape.result;
export const accountsResultSchema = zEnvelopeItemsAccountItem.shape.result;

/** Longest account name (docs/product.md#9-account-selector). */
export const ACCOUNT_NAME_MAX = 30;
