/**
 * What a rule, saved or not, would do: `POST rules/preview` {rule} (a run as it would be now,
 * status PREVIEW, nothing stored or sent) and `POST rules/backtest` {rule, days} (the points
 * of each scheduled time over the last days and the entities it would have touched, each a
 * flat `{level, entityId, name, campaignId, timesChanged, metrics}`). Both answers are
 * validated with the schemas generated from the server's OpenAPI document.
 */
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { zBacktestResponse, zPreviewResponse } from '@/api/generated/zod.gen';
import { api } from '@/lib/api-client';
import type { RuleBody } from '../schema';
import type { Run } from './runs';

export async function previewRule(rule: RuleBody): Promise<Run> {
  const { item } = await api.post('/rules/preview', { rule }, zPreviewResponse.shape.result);
  return item;
}

export function usePreviewRule() {
  return useMutation({ mutationFn: (rule: RuleBody) => previewRule(rule) });
}

const backtestResultSchema = zBacktestResponse.shape.result;
export type Backtest = z.infer<typeof backtestResultSchema>['item'];
export type BacktestEntity = Backtest['entities'][number];

export const BACKTEST_MAX_DAYS = 90;

export async function backtestRule(rule: RuleBody, days: number): Promise<Backtest> {
  const { item } = await api.post('/rules/backtest', { rule, days }, backtestResultSchema);
  return item;
}

export function useBacktestRule() {
  return useMutation({ mutationFn: ({ rule, days }: { rule: RuleBody; days: number }) => backtestRule(rule, days) });
}
