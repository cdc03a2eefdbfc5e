/**
 * The upsell modal (docs/product.md#4-upsell-modals, docs/product.md#8-trial-and-purchase-messages):
 * the one `plan/current` answers, unless its type was seen in this browser. Its confirm starts the
 * Pro trial ('Start trial'), leads to Settings › Subscription ('Upgrade') or only closes ('Got
 * it'); closing it in any way stores the type as seen. Trial-ending modals show the days left.
 */
import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAccounts } from '@/features/accounts';
import { isRunning, useTasks } from '@/features/tasks';
import { tn } from '@/i18n';
import { useCurrentPlan } from '../api/get-current-plan';
import { useStartTrial } from '../api/give-me-trial';
import type { UpsellModal as Upsell } from '../api/plan';
import { holdsThePlace, markModalSeen, modalConfirm, OFFER_SHOWN_KEY, offerShown, shownModal, SUBSCRIPTION_PATH } from '../prompts';

/**
 * docs/product.md#9-timings-and-sizes: modals are 500 px wide, at least 300 px and at most 85 % of
 * the window high; the buttons stay at the bottom however short the text.
 */
const MODAL_STYLES = {
  content: { minHeight: 300, maxHeight: '85vh', display: 'flex', flexDirection: 'column' },
  body: { flex: 1, display: 'flex', flexDirection: 'column' },
  title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' },
} as const;

/**
 * Whether a connection's first sync is still running: a connection not synced yet with its
 * sync task under way (a failed first sync no longer holds the offers back).
 */
function useFirstSyncRunning(): boolean {
  const accounts = useAccounts();
  const tasks = useTasks();
  if (accounts.isPending || tasks.isPending) return true;
  const unsynced = new Set((accounts.data ?? []).filter((a) => !a.lastSyncedAt).map((a) => a._id));
  return (tasks.data ?? []).some((task) => isRunning(task) && task.kind.startsWith('sync-') && task.accountId != null && unsynced.has(task.accountId));
}

export function UpsellModal() {
  const { pathname } = useLocation();
  const { data } = useCurrentPlan();
  const [, setSeen] = useState(0);
  const firstSyncRunning = useFirstSyncRunning();
  const shownThisSignIn = window.sessionStorage.getItem(OFFER_SHOWN_KEY);
  const modal = shownModal(data?.modal, window.localStorage, { pathname, firstSyncRunning, shownThisSignIn }, data?.plan);
  // At most one offer modal per sign-in and plan: the first shown holds the place.
  const plan = data?.plan;
  useEffect(() => {
    if (modal && !holdsThePlace(shownThisSignIn, plan)) window.sessionStorage.setItem(OFFER_SHOWN_KEY, offerShown(plan, modal.type));
  }, [modal, shownThisSignIn, plan]);
  if (!modal) return null;
  const close = () => {
    markModalSeen(window.localStorage, modal.type);
    setSeen((n) => n + 1);
  };
  return <UpsellDialog key={modal.type} modal={modal} onClose={close} />;
}

function UpsellDialog({ modal, onClose }: { modal: Upsell; onClose: () => void }) {
  const navigate = useNavigate();
  const startTrial = useStartTrial();
  const action = modalConfirm(modal);
  const confirm = () => {
    if (action === 'startTrial') {
      // docs/product.md#8-trial-and-purchase-messages: success or failure, a snackbar says so and
      // the modal closes.
      startTrial.mutate(undefined, { onSettled: onClose });
      return;
    }
    onClose();
    if (action === 'upgrade') void navigate(SUBSCRIPTION_PATH);
  };
  return (
    <Modal opened onClose={onClose} title={modal.title} size={500} centered styles={MODAL_STYLES} data-testid="upsell-modal">
      <Stack gap="md" flex={1} data-testid="upsell-modal-body" data-type={modal.type}>
        {typeof modal.daysLeft === 'number' && (
          <Badge color="orange" variant="light" size="lg">
            {tn('plans.daysLeft', modal.daysLeft)}
          </Badge>
        )}
        {modal.info && (
          <Alert color="blue" variant="light">
            {modal.info}
          </Alert>
        )}
        <Text>{modal.description}</Text>
        {modal.footer && (
          <Text size="sm" c="dimmed">
            {modal.footer}
          </Text>
        )}
        <Group justify="flex-end" mt="auto" pt="md">
          {modal.cancel && (
            <Button variant="default" onClick={onClose}>
              {modal.cancel}
            </Button>
          )}
          <Button onClick={confirm} disabled={!modal.confirmEnabled} loading={startTrial.isPending}>
            {modal.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
