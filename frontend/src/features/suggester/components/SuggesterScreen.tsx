/**
 * The keyword suggester (spec §2): a five-step wizard. The header shows the steps, the body
 * the current one (search parameters; the collection's progress, then the keyword table;
 * the selection carried on), the footer the back button from step 2 and the action button
 * with the hint of why it is disabled or how long a collection takes.
 */
import { Button, Card, Group, Loader, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconSearch } from '@tabler/icons-react';
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';
import { useTiming } from '../api/search-info';
import { useSuggester } from '../hooks/useSuggester';
import { actionLabel, canAdvanceFrom, durationHint, hasBack, STEP_COUNT, STEP_TITLES, type Step } from '../wizard';
import { CollectingPanel } from './CollectingPanel';
import { ConfirmModal } from './ConfirmModal';
import { KeywordSelection } from './KeywordSelection';
import { SearchParameters } from './SearchParameters';
import { SelectionReview } from './SelectionReview';

const STEPS = Array.from({ length: STEP_COUNT }, (_, i) => (i + 1) as Step);

export function SuggesterScreen() {
  const suggester = useSuggester();
  const { state, blocker } = suggester;
  const { step, form } = state;
  const timing = useTiming(form.suggestionType, form.country);
  const duration = durationHint(timing.data);

  if (!suggester.ready) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (!suggester.hasAccount) return <MessagePage title={t('title.keywordSuggester')} text={t('suggester.noAccount')} />;

  const collecting = state.collecting !== null;
  const disabled = blocker !== null || state.starting || (step > 1 && !canAdvanceFrom(step));
  // Beside the action: why it is disabled, else on step 1 how long a collection takes.
  const hint = blocker ? t(blocker) : step === 1 ? `${t('suggester.duration')}: ${duration}` : null;

  return (
    <Stack gap="md" data-testid="suggester">
      <Title order={2} size="h3">
        {t('title.keywordSuggester')}
      </Title>
      <Card withBorder padding="md">
        <Stepper active={step - 1} size="sm" allowNextStepsSelect={false} aria-label={t('title.keywordSuggester')}>
          {STEPS.map((s) => (
            <Stepper.Step key={s} label={t(STEP_TITLES[s])} aria-current={s === step ? 'step' : undefined} />
          ))}
        </Stepper>
      </Card>

      {step === 1 && <SearchParameters suggester={suggester} />}
      {step === 2 && (collecting || state.loadingResult ? <CollectingPanel suggester={suggester} duration={duration} /> : <KeywordSelection suggester={suggester} />)}
      {step === 3 && <SelectionReview suggester={suggester} />}

      <Card withBorder padding="sm" data-testid="wizard-footer">
        <Group justify="space-between" wrap="nowrap">
          <div>
            {hasBack(step) && (
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
            <Button
              onClick={suggester.advance}
              disabled={disabled}
              loading={state.starting}
              leftSection={step === 1 ? <IconSearch size={16} /> : undefined}
              rightSection={step > 1 ? <IconArrowRight size={16} /> : undefined}
            >
              {t(actionLabel(step))}
            </Button>
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
