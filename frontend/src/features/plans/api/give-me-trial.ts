/**
 * GET /api/pay/giveMeTrial: starts the workspace's 14-day Pro trial without a card (owner and
 * admin). docs/product.md#8-trial-and-purchase-messages: success 'Congratulations! Your 14-day Pro
 * Plan trial has begun' and failure 'Error in getting a trial', both for 6 s
 * (docs/product.md#9-timings-and-sizes); the plan and purchases are asked again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { zEnvelopeTrialStarted } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { api, type CallOptions } from '@/lib/api-client';
import { showLongSnackbar } from '@/lib/notifications';
import { planKeys } from './keys';

const trialStartedSchema = zEnvelopeTrialStarted.shape.result;
export type TrialStarted = z.infer<typeof trialStartedSchema>;

export async function giveMeTrial({ signal }: CallOptions = {}): Promise<TrialStarted> {
  return api.get('/pay/giveMeTrial', trialStartedSchema, { signal });
}

export function useStartTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => giveMeTrial(),
    onSuccess: () => showLongSnackbar(t('plans.trialStarted')),
    onError: () => showLongSnackbar(t('plans.trialFailed'), 'danger'),
    // Refused or not, the plan may have changed (e.g. a trial started in another tab).
    onSettled: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
