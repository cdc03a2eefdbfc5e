/**
 * Apple Ads ids (campaign groups, campaigns, ad groups, keywords, search terms, ads, apps)
 * are 64-bit integers; a JavaScript number holds integers exactly only up to 2^53, and a
 * search-term id is a 63-bit hash. The server sends every such id as a string of digits, and
 * the app keeps it a string end to end: in schemas, state, addresses and request bodies.
 * Nothing parses an id into a number.
 */
import { z } from 'zod';

/** An Apple Ads id: a string of digits (negative for the sandbox's search-match terms). */
export type EntityId = string;

const ID_PATTERN = /^-?\d{1,19}$/;

/** The schema of an id on the wire. */
export const entityIdSchema = z.string().regex(ID_PATTERN);

/** Whether `value` is an id. */
export function isEntityId(value: unknown): value is EntityId {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** The id in `row[field]`, or null when the row has none. */
export function idIn(row: Readonly<Record<string, unknown>>, field: string): EntityId | null {
  const value = row[field];
  return isEntityId(value) ? value : null;
}

/** A positive id from an address segment (after `prefix`), or null. */
export function positiveIdIn(text: string | undefined, prefix = ''): EntityId | null {
  if (text === undefined || !text.startsWith(prefix)) return null;
  const digits = text.slice(prefix.length);
  return /^[1-9]\d{0,18}$/.test(digits) ? digits : null;
}
