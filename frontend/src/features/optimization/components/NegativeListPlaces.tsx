/**
 * The places the negative keyword lists' editor offers on the campaigns and negative keywords
 * levels: the campaign group's campaigns and, inside a campaign, its ad groups, read with the
 * report (today, one page of up to 1,000 rows).
 */
import type { ReactNode } from 'react';
import type { ListScope, PlaceOption, PlaceSource } from '@/features/negative-lists';
import type { EntityId } from '@/lib/ids';
import { useReport, type ReportRequest, type ReportRow } from '../api/report';

function rowsRequest(scope: ListScope, level: 'CAMPAIGNS' | 'GROUPS'): ReportRequest {
  const today = new Date().toISOString().slice(0, 10);
  return {
    accountId: scope.accountId,
    orgId: scope.orgId,
    level,
    startDate: today,
    endDate: today,
    campaignId: level === 'GROUPS' ? scope.campaignId : null,
    adGroupId: null,
    sort: null,
    page: 1,
    filters: [],
    pageSize: 1000,
  };
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The rows with an id in `idField`, named by `nameField` (else by the id). */
const optionsOf = (rows: ReportRow[] | undefined, idField: string, nameField: string): PlaceOption[] =>
  (rows ?? []).filter((r) => text(r[idField]) !== '').map((r) => ({ id: text(r[idField]), label: text(r[nameField]) || text(r[idField]) }));

function CampaignPlaces({ scope, children }: { scope: ListScope; children: (campaigns: { options: PlaceOption[]; loading: boolean }) => ReactNode }) {
  const campaigns = useReport(rowsRequest(scope, 'CAMPAIGNS'));
  return children({ options: optionsOf(campaigns.data?.items, 'campaignId', 'campaignName'), loading: campaigns.isLoading });
}

function AdGroupPlaces({ scope, campaignId, children }: { scope: ListScope; campaignId: EntityId; children: (adGroups: PlaceOption[]) => ReactNode }) {
  const groups = useReport(rowsRequest({ ...scope, campaignId }, 'GROUPS'));
  return children(optionsOf(groups.data?.items, 'adGroupId', 'adGroupName'));
}

export const negativeListPlaces: PlaceSource = { Campaigns: CampaignPlaces, AdGroups: AdGroupPlaces };
