/** Options saved per user (spec §3): a map of option key to any JSON value, and its version. */
import { z } from 'zod';

export const frontOptionsSchema = z.record(z.string(), z.unknown());
export type FrontOptions = z.infer<typeof frontOptionsSchema>;

/**
 * The saved options and their version: a save names the version it was based on
 * (`If-Match`) and is refused with 412 when a key it writes changed since.
 */
export const frontOptionsResultSchema = z.object({ item: frontOptionsSchema, version: z.number().nullish() });
export type SavedOptions = z.infer<typeof frontOptionsResultSchema>;
