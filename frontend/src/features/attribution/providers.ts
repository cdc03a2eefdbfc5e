/**
 * What the integration screens say of a provider: its kind's section (attribution providers,
 * revenue, custom), its status (docs/product.md#4-integration-status: 'Active' once an event
 * arrived, 'Loading data' while connected without one, else not connected) and who may change it
 * (docs/product.md#6-roles-and-permissions: owner, admin, writer).
 */
import type { Role } from '@/features/auth';
import type { MessageKey } from '@/i18n';
import type { Integration } from './api/get-integrations';

/** The sections of the list, in order, as the list call's `kind` names them. */
export const KINDS = ['attribution', 'revenue', 'custom'] as const;
export type Kind = (typeof KINDS)[number];

export interface StatusView {
  label: MessageKey;
  color: 'green' | 'yellow' | 'gray';
}

export function statusView(item: Pick<Integration, 'connected' | 'status'>): StatusView {
  if (!item.connected) return { label: 'attribution.status.notConnected', color: 'gray' };
  return item.status === 'Active' ? { label: 'attribution.status.Active', color: 'green' } : { label: 'attribution.status.Loading data', color: 'yellow' };
}

/** Integrations of `kind`, in the list's order; an unknown kind goes with custom. */
export function ofKind(items: readonly Integration[], kind: Kind): Integration[] {
  return items.filter((item) => (KINDS.includes(item.kind as Kind) ? item.kind === kind : kind === 'custom'));
}

/** Whether `role` may connect, rotate, disconnect, send test events and change event settings. */
export function canChange(role: Role): boolean {
  return role !== 'reader';
}

/** A provider's one-line description, or null when the copy has none. */
export function aboutKey(provider: string): MessageKey | null {
  const key = `attribution.about.${provider}`;
  return ABOUT.has(key) ? (key as MessageKey) : null;
}

const ABOUT = new Set(['appsflyer', 'adjust', 'branch', 'singular', 'kochava', 'tenjin', 'revenuecat', 'custom'].map((p) => `attribution.about.${p}`));

/** The message with each `{name}` replaced. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The address of a provider's page. */
export function integrationPath(provider: string): string {
  return `/settings/integration?${new URLSearchParams({ provider }).toString()}`;
}
