/**
 * Options saved per user (docs/product.md#3-options-saved-per-user): a map of option key to any
 * JSON value, and its version.
 */
import type { z } from 'zod';
import { zEnvelopeSavedOptions } from '@/api/generated/zod.gen';

/**
 * The saved options and their version (the document's `SavedOptions`): a save names the
 * version it was based on (`If-Match`) and is refused with 412 when a key it writes changed
 * since.
 */
export const frontOptionsResultSchema = zEnvelopeSavedOptions.shape.result;
export type SavedOptions = z.infer<typeof frontOptionsResultSchema>;

/** The options themselves: any JSON value by option key. */
export const frontOptionsSchema = frontOptionsResultSchema.shape.item;
export type FrontOptions = z.infer<typeof frontOptionsSchema>;
