/** Query keys of the optimisation feature. */
import type { EntityId } from '@/lib/ids';
import type { ReportRequest } from './report';

export const optimizationKeys = {
  all: ['optimization'] as const,
  report: (request: ReportRequest) => ['optimization', 'report', request] as const,
  presets: (level: string) => ['optimization', 'presets', level] as const,
  columnGroups: (level: string) => ['optimization', 'column-groups', level] as const,
  tags: () => ['optimization', 'tags'] as const,
  campaign: (accountId: string, orgId: EntityId, campaignId: EntityId) => ['optimization', 'campaign', accountId, orgId, campaignId] as const,
  adGroup: (accountId: string, orgId: EntityId, campaignId: EntityId, adGroupId: EntityId) =>
    ['optimization', 'adGroup', accountId, orgId, campaignId, adGroupId] as const,
};
