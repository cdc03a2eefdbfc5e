/**
 * The rules of a campaign group and their writes (docs/api/rules.md Routes):
 * `GET rules/all?accountId&orgId`, `PUT rules/user` (create), `PUT rules/user/{id}`
 * (replace, also how the list's switch turns a rule on or off), `DELETE rules/user/many`.
 */
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { RulesIds } from '@/api/generated/types.gen';
import { zEnvelopeItemRule, zEnvelopeItemsRule, zEnvelopeRulesDeleted } from '@/api/generated/zod.gen';
import { api, apiRequest, type CallOptions } from '@/lib/api-client';
import { answeredRuleSchema, type Rule, type RuleBody } from '../schema';
import { ruleKeys } from './keys';

const rulesResultSchema = zEnvelopeItemsRule.shape.result.extend({ items: z.array(answeredRuleSchema) });
const ruleResultSchema = zEnvelopeItemRule.shape.result.extend({ item: answeredRuleSchema });

export interface GroupScope {
  accountId: string;
  orgId: string;
}

export async function getRules(scope: GroupScope, { signal }: CallOptions = {}): Promise<Rule[]> {
  const { items } = await api.get('/rules/all', rulesResultSchema, { query: { accountId: scope.accountId, orgId: scope.orgId }, signal });
  return items;
}

export const rulesQuery = (scope: GroupScope | null) =>
  queryOptions({
    queryKey: ruleKeys.list(scope?.accountId ?? '', scope?.orgId ?? ''),
    queryFn: scope ? ({ signal }) => getRules(scope, { signal }) : skipToken,
  });

export function useRules(scope: GroupScope | null) {
  return useQuery(rulesQuery(scope));
}

/** Creates the rule (no id) or replaces rule `id`; answers the stored rule. */
export async function saveRule(body: RuleBody, id: string | null): Promise<Rule> {
  const path = id === null ? '/rules/user' : `/rules/user/${encodeURIComponent(id)}`;
  const { item } = await api.put(path, body, ruleResultSchema);
  return item;
}

/** A stored rule as the body that replaces it (the server's own fields left out). */
export function bodyOf(rule: Rule): Record<string, unknown> {
  const { id: _id, currency: _currency, createdBy: _by, createdAt: _created, updatedAt: _updated, lastRun: _lastRun, ...body } = rule;
  return { ...body, version: rule.version ?? 1 };
}

export function useSaveRule(scope: GroupScope) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, id }: { body: RuleBody; id: string | null }) => saveRule(body, id),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.list(scope.accountId, scope.orgId) }),
  });
}

/** Turns a rule on or off: the rule as stored with `enabled` flipped. */
export function useToggleRule(scope: GroupScope) {
  const client = useQueryClient();
  const key = ruleKeys.list(scope.accountId, scope.orgId);
  return useMutation({
    mutationFn: async (rule: Rule) => {
      const { item } = await api.put(`/rules/user/${encodeURIComponent(rule.id)}`, { ...bodyOf(rule), enabled: !rule.enabled }, ruleResultSchema);
      return item;
    },
    onSuccess: (item) => client.setQueryData<Rule[]>(key, (rules) => rules?.map((r) => (r.id === item.id ? item : r))),
  });
}

export async function deleteRules(ids: string[]): Promise<number> {
  const { deleted } = await apiRequest('/rules/user/many', { method: 'DELETE', body: { rulesIds: ids } satisfies RulesIds, schema: zEnvelopeRulesDeleted.shape.result });
  return deleted;
}

export function useDeleteRules(scope: GroupScope) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => deleteRules(ids),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.list(scope.accountId, scope.orgId) }),
  });
}
