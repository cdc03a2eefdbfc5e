/**
 * What a rule, saved or not, would do: `POST rules/preview` {rule} (a run as it would be now,
 * status PREVIEW, nothing stored or sent) and `POST rules/backtest` {rule, days} (the points
 * of each scheduled time over the last days and the entities it would have touched).
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { RuleBody } from '../schema';
import { runSchema, type Run } from './runs';

export async function previewRule(rule: RuleBody): Promise<Run> {
  const result = await api.post('/rules/preview', { rule }, z.union([z.object({ item: runSchema }), runSchema]));
  return 'item' in result ? result.item : result;
}

export function usePreviewRule() {
  return useMutation({ mutationFn: (rule: RuleBody) => previewRule(rule) });
}

const decimalText = z.union([z.string(), z.number()]).transform(String);

export const backtestSchema = z.object({
  points: z.array(
    z.object({
      at: z.union([z.string(), z.number()]),
      window: z.object({ startDate: z.string(), endDate: z.string() }).nullish(),
      matched: z.number(),
      changes: z.number(),
    }),
  ),
  entities: z.array(
    z.looseObject({
      entity: z.looseObject({ level: z.string().nullish(), entityId: z.string().nullish(), name: z.string().nullish(), campaignId: z.string().nullish(), adGroupId: z.string().nullish() }),
      timesChanged: z.number(),
      metrics: z.record(z.string(), decimalText.nullable()).nullish(),
    }),
  ),
});
export type Backtest = z.infer<typeof backtestSchema>;

export const BACKTEST_MAX_DAYS = 90;

export async function backtestRule(rule: RuleBody, days: number): Promise<Backtest> {
  const { item } = await api.post('/rules/backtest', { rule, days }, z.object({ item: backtestSchema }));
  return item;
}

export function useBacktestRule() {
  return useMutation({ mutationFn: ({ rule, days }: { rule: RuleBody; days: number }) => backtestRule(rule, days) });
}
