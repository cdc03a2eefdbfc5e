/** Query keys of the suggester feature. */
import type { Scope } from './types';

export const suggesterKeys = {
  all: ['suggester'] as const,
  apps: (scope: Scope) => [...suggesterKeys.all, 'apps', scope.accountId, scope.orgId] as const,
  findApp: (query: string, country: string) => [...suggesterKeys.all, 'findApp', query, country] as const,
  countries: () => [...suggesterKeys.all, 'countries'] as const,
  defaults: () => [...suggesterKeys.all, 'defaults'] as const,
  timing: (type: string, country: string) => [...suggesterKeys.all, 'timing', type, country] as const,
  competitors: (adamId: string) => [...suggesterKeys.all, 'competitors', adamId] as const,
  /** The estimated impressions of one collection's result. */
  estimates: (scope: Scope, country: string, resultId: string) => [...suggesterKeys.all, 'estimates', scope.accountId, scope.orgId, country, resultId] as const,
  /** Which of these campaign names the campaign group already has. */
  exists: (scope: Scope, names: readonly string[]) => [...suggesterKeys.all, 'exists', scope.accountId, scope.orgId, ...names] as const,
  productPages: (scope: Scope, adamId: string) => [...suggesterKeys.all, 'productPages', scope.accountId, scope.orgId, adamId] as const,
};
