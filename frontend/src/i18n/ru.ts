/**
 * Russian copy (the locale is fixed to English; this resource is kept complete by its type):
 * the twins of the parts `en.ts` merges, each in `messages.ru.ts` beside its English.
 */
import type { Messages } from './en';
import { sharedRu } from './shared.ru';
import { accountsRu } from '@/features/accounts/messages.ru';
import { activityRu } from '@/features/activity/messages.ru';
import { appStoreConnectRu } from '@/features/attribution/app-store-messages.ru';
import { attributionRu } from '@/features/attribution/messages.ru';
import { benchmarksRu } from '@/features/benchmarks/messages.ru';
import { authRu } from '@/features/auth/messages.ru';
import { creationRu } from '@/features/creation/messages.ru';
import { negativeListsRu } from '@/features/negative-lists/messages.ru';
import { optimizationRu } from '@/features/optimization/messages.ru';
import { plansRu } from '@/features/plans/messages.ru';
import { rulesRu } from '@/features/rules/messages.ru';
import { suggesterRu } from '@/features/suggester/messages.ru';
import { tasksRu } from '@/features/tasks/messages.ru';
import { teamRu } from '@/features/team/messages.ru';
import { usersRu } from '@/features/users/messages.ru';

/** The parts, in the order of `EN_PARTS`. */
export const RU_PARTS = [sharedRu, authRu, usersRu, tasksRu, accountsRu, optimizationRu, creationRu, negativeListsRu, suggesterRu, plansRu, rulesRu, activityRu, teamRu, attributionRu, benchmarksRu, appStoreConnectRu] as const;

export const ru: Messages = {
  ...sharedRu,
  ...authRu,
  ...usersRu,
  ...tasksRu,
  ...accountsRu,
  ...optimizationRu,
  ...creationRu,
  ...negativeListsRu,
  ...suggesterRu,
  ...plansRu,
  ...rulesRu,
  ...activityRu,
  ...teamRu,
  ...attributionRu,
  ...benchmarksRu,
  ...appStoreConnectRu,
};
