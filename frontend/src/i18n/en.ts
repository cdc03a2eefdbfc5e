/**
 * English copy. Keys are shared with every other language (see `Messages`). Each feature's
 * copy is beside it (`features/<area>/messages.en.ts`), the shell's and what several features
 * show in `shared.en.ts`; here they are merged into one resource.
 */
import { sharedEn } from './shared.en';
import { accountsEn } from '@/features/accounts/messages.en';
import { activityEn } from '@/features/activity/messages.en';
import { appStoreConnectEn } from '@/features/attribution/app-store-messages.en';
import { attributionEn } from '@/features/attribution/messages.en';
import { benchmarksEn } from '@/features/benchmarks/messages.en';
import { authEn } from '@/features/auth/messages.en';
import { creationEn } from '@/features/creation/messages.en';
import { negativeListsEn } from '@/features/negative-lists/messages.en';
import { optimizationEn } from '@/features/optimization/messages.en';
import { plansEn } from '@/features/plans/messages.en';
import { rulesEn } from '@/features/rules/messages.en';
import { suggesterEn } from '@/features/suggester/messages.en';
import { tasksEn } from '@/features/tasks/messages.en';
import { teamEn } from '@/features/team/messages.en';
import { usersEn } from '@/features/users/messages.en';

/** The parts, in order: no key may be in two of them (a later one would win; `messages.test.ts`). */
export const EN_PARTS = [sharedEn, authEn, usersEn, tasksEn, accountsEn, optimizationEn, creationEn, negativeListsEn, suggesterEn, plansEn, rulesEn, activityEn, teamEn, attributionEn, benchmarksEn, appStoreConnectEn] as const;

export const en = {
  ...sharedEn,
  ...authEn,
  ...usersEn,
  ...tasksEn,
  ...accountsEn,
  ...optimizationEn,
  ...creationEn,
  ...negativeListsEn,
  ...suggesterEn,
  ...plansEn,
  ...rulesEn,
  ...activityEn,
  ...teamEn,
  ...attributionEn,
  ...benchmarksEn,
  ...appStoreConnectEn,
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
