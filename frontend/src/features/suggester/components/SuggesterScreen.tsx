/**
 * The keyword suggester (docs/product.md#2-keyword-suggester): a five-step wizard. The header shows
 * the steps, the body the current one (search parameters; the collection's progress, then the
 * keyword table; the segments; the campaign names; the campaign settings, then the creation's
 * progress), the footer the back button from step 2 and the action button with the hint of why it
 * is disabled, how long a collection takes or how many campaigns will be created.
 */
import { Alert, Button, Card, Group, List, Loader, Stack, Stepper, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconRocket, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { campaignsPath } from '@/features/accounts';
import { CreationProgressPanel, type CreationOutcome } from '@/features/tasks';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { campaignTotal } from '../campaign-plan';
import { useTiming } from '../api/search-info';
import { useSuggester } from '../hooks/useSuggester';
import { actionLabel, canAdvanceFrom, durationHint, hasBack, STEP_COUNT, STEP_TITLES, type Step } from '../wizard';
import { CollectingPanel } from './CollectingPanel';
import { ConfirmModal } from './ConfirmModal';
import { KeywordSelection } from './KeywordSelection';
import { NamingStep } from './NamingStep';
import { SearchParameters } from './SearchParameters';
import { SegmentationStep } from './SegmentationStep';
import { SelectionReview } from './SelectionReview';
import { SETTINGS_FORM_ID, SettingsStep } from './SettingsStep';

/** The campaigns just created, with the way to their campaign group's table. */
function CreatedNotice({ created, onClose }: { created: { accountId: string; orgId: string | null; names: string[] }; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, []);
  return (
    <Alert ref={ref} color="green" variant="light" title={t('creation.done')} withCloseButton onClose={onClose} closeButtonLabel={t('common.close')} data-testid="creation-done">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{tn('creation.doneText', created.names.length, formatNumber(created.names.length, 0))}</Text>
        <List size="sm">
          {created.names.map((name) => (
            <List.Item key={name}>{name}</List.Item>
          ))}
        </List>
        {created.orgId && (
          <Button component={Link} to={campaignsPath(created.accountId, created.orgId)} size="xs" data-testid="open-campaigns">
            {t('creation.openCampaigns')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

const STEPS = Array.from({ length: STEP_COUNT }, (_, i) => (i + 1) as Step);

export function SuggesterScreen() {
  const suggester = useSuggester();
  const { state, blocker } = suggester;
  const { step, form } = state;
  const timing = useTiming(form.suggestionType, form.country);
  const duration = durationHint(timing.data);
  const [discovery, setDiscovery] = useState(true);
  const { endCreation } = suggester;
  const onCreationEnd = useCallback(
    (outcome: CreationOutcome) => endCreation(outcome.kind === 'done', outcome.kind === 'done' ? outcome.progress.campaignsMapping.map((c) => c.name) : []),
    [endCreation],
  );

  if (!suggester.ready) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (!suggester.hasAccount) return <MessagePage title={t('title.keywordSuggester')} text={t('suggester.noAccount')} />;

  const collecting = state.collecting !== null;
  const creating = state.creating !== null;
  const last = step === STEP_COUNT;
  const disabled = blocker !== null || state.starting || creating || suggester.submitting || (step > 1 && !last && !canAdvanceFrom(step));
  // Beside the action: why it is disabled, else on step 1 how long a collection takes, from
  // step 3 how many campaigns will be created.
  const total = campaignTotal(suggester.plan, last && discovery);
  const hint = blocker
    ? t(blocker)
    : step === 1
      ? `${t('suggester.duration')}: ${duration}`
      : step >= 3
        ? tn('suggester.campaignTotal', total, formatNumber(total, 0))
        : null;

  return (
    <Stack gap="md" data-testid="suggester">
      <Card withBorder padding="md">
        {/* Compact, so the five steps stay on one line from a 1280 px window with the sidebar open. */}
        <Stepper
          active={step - 1}
          size="xs"
          allowNextStepsSelect={false}
          aria-label={t('title.keywordSuggester')}
          styles={{ steps: { flexWrap: 'nowrap' }, separator: { marginInline: 'var(--mantine-spacing-xs)', minWidth: 8 } }}
        >
          {STEPS.map((s) => (
            <Stepper.Step key={s} label={t(STEP_TITLES[s])} aria-current={s === step ? 'step' : undefined} />
          ))}
        </Stepper>
      </Card>

      {/* Above the emptied step 1, scrolled into view: what was just made comes first. */}
      {step === 1 && state.created && <CreatedNotice created={state.created} onClose={suggester.dismissCreated} />}
      {step === 1 && <SearchParameters suggester={suggester} />}
      {step === 2 && (collecting || state.loadingResult ? <CollectingPanel suggester={suggester} duration={duration} /> : <KeywordSelection suggester={suggester} />)}
      {step === 3 && <SelectionReview suggester={suggester} />}
      {step === 3 && <SegmentationStep suggester={suggester} />}
      {step === 4 && <NamingStep suggester={suggester} />}
      {step === 5 && state.creating && (
        <Card withBorder padding="md" data-testid="creation">
          <Stack gap="sm">
            <Text fw={600}>{t('creation.title')}</Text>
            <CreationProgressPanel key={state.creating.taskId} taskId={state.creating.taskId} onEnd={onCreationEnd} />
            <CreationFailedActions suggester={suggester} />
          </Stack>
        </Card>
      )}
      {step === 5 && <div hidden={creating}><SettingsStep suggester={suggester} onDiscovery={setDiscovery} /></div>}

      <Card withBorder padding="sm" data-testid="wizard-footer">
        <Group justify="space-between" wrap="nowrap">
          <div>
            {hasBack(step) && !creating && (
              <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={suggester.back}>
                {t('suggester.back')}
              </Button>
            )}
          </div>
          <Group gap="md" wrap="nowrap">
            {hint && (
              <Text size="sm" c={blocker ? 'dimmed' : 'gray.7'} data-testid="wizard-hint">
                {hint}
              </Text>
            )}
            {last ? (
              <Button type="submit" form={SETTINGS_FORM_ID} disabled={disabled} loading={suggester.submitting} leftSection={<IconRocket size={16} />}>
                {t(actionLabel(step))}
              </Button>
            ) : (
              <Button
                onClick={suggester.advance}
                disabled={disabled}
                loading={state.starting}
                leftSection={step === 1 ? <IconSearch size={16} /> : undefined}
                rightSection={step > 1 ? <IconArrowRight size={16} /> : undefined}
              >
                {t(actionLabel(step))}
              </Button>
            )}
          </Group>
        </Group>
      </Card>

      <ConfirmModal
        opened={suggester.backModal.opened}
        title={t('suggester.backConfirm.title')}
        text={t('suggester.backConfirm.text')}
        confirmLabel={t('suggester.backConfirm.confirm')}
        onConfirm={() => void suggester.backModal.confirm()}
        onClose={suggester.backModal.close}
      />
      <ConfirmModal
        opened={suggester.stopModal.opened}
        title={t('suggester.stopConfirm.title')}
        text={t('suggester.stopConfirm.text')}
        confirmLabel={t('suggester.stopConfirm.confirm')}
        onConfirm={() => void suggester.stopModal.confirm()}
        onClose={suggester.stopModal.close}
        pending={suggester.stopModal.pending}
        color="red"
      />
    </Stack>
  );
}

/** A creation that failed: back to the settings to try again (the state is kept). */
function CreationFailedActions({ suggester }: { suggester: ReturnType<typeof useSuggester> }) {
  const { creationFailed } = suggester;
  if (!creationFailed) return null;
  return (
    <Group>
      <Button variant="default" size="xs" onClick={suggester.dismissCreation}>
        {t('creation.backToSettings')}
      </Button>
    </Group>
  );
}
