/**
 * The places a negative keyword list is applied to, as the editor offers them: the campaign
 * group's campaigns and, inside a campaign, its ad groups. The screen that opens the modal
 * knows them (the campaigns table reads them from its report) and passes a `PlaceSource`.
 */
import type { ComponentType, ReactNode } from 'react';
import type { EntityId } from '@/lib/ids';

/** Where the modal is open: the campaign group, and the campaign when inside one. */
export interface ListScope {
  accountId: string;
  orgId: EntityId;
  campaignId: EntityId | null;
}

/** A campaign or ad group a list can be applied to: its id and the name shown. */
export interface PlaceOption {
  id: string;
  label: string;
}

/**
 * Components that find the places and render `children` with them; each is rendered only
 * while the editor that offers them shows.
 */
export interface PlaceSource {
  /** The campaign group's campaigns, and whether they are still loading. */
  Campaigns: ComponentType<{ scope: ListScope; children: (campaigns: { options: PlaceOption[]; loading: boolean }) => ReactNode }>;
  /** The ad groups of campaign `campaignId`. */
  AdGroups: ComponentType<{ scope: ListScope; campaignId: EntityId; children: (adGroups: PlaceOption[]) => ReactNode }>;
}
