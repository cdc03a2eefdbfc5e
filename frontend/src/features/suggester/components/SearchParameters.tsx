/**
 * Step 1, search parameters (docs/product.md#2-keyword-suggester): the app and country, the
 * suggestion type, the required and negative keywords (one per line, counted as parsed,
 * docs/product.md#5-keyword-lists), competitors in competitor mode, and the payload's other
 * switches under More options. A failed collection comes back here with its error.
 */
import { Alert, Card, Collapse, Grid, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Text, Textarea, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { useCountries } from '../api/apps';
import type { Suggester } from '../hooks/useSuggester';
import { SUGGESTION_TYPES } from '../wizard';
import { AppPicker } from './AppPicker';
import { CompetitorPicker } from './CompetitorPicker';

function KeywordsField({ label, help, placeholder, value, count, onChange, testId }: { label: string; help: string; placeholder: string; value: string; count: number; onChange: (text: string) => void; testId: string }) {
  return (
    <Stack gap={4}>
      <Textarea
        label={label}
        description={help}
        placeholder={placeholder}
        autosize
        minRows={5}
        maxRows={10}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        data-testid={testId}
      />
      <Text size="xs" c="dimmed" ta="right" data-testid={`${testId}-count`}>
        {tn('suggester.keywordCount', count, formatNumber(count, 0))}
      </Text>
    </Stack>
  );
}

export function SearchParameters({ suggester }: { suggester: Suggester }) {
  const { state, setForm, requiredKeywords, negativeKeywords, scope } = suggester;
  const { form } = state;
  const countries = useCountries();
  const [more, setMore] = useState(false);

  const countryData = useMemo(() => {
    const all = countries.data ?? [];
    const sold = form.app?.countries;
    const list = sold && sold.length > 0 ? all.filter((c) => sold.includes(c.code)) : all;
    return list.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  }, [countries.data, form.app]);

  const settings = form.settings;
  const setSettings = (change: Partial<typeof settings>) => setForm({ settings: { ...settings, ...change } });

  return (
    <Stack gap="md" data-testid="search-parameters">
      {state.collectionError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="collection-error">
          {state.collectionError}
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="md">
              <AppPicker scope={scope} country={form.country} value={form.app} onChange={(app) => setForm({ app, competitorIds: [] })} />
              <Select
                label={t('suggester.country')}
                placeholder={t('suggester.countryPlaceholder')}
                searchable
                data={countryData}
                value={form.country}
                onChange={(country) => setForm({ country })}
                nothingFoundMessage={t('suggester.noResults')}
                error={countries.error ? countries.error.message : undefined}
                data-testid="country-picker"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('suggester.type')}
                </Text>
                <SegmentedControl
                  fullWidth
                  value={form.suggestionType}
                  onChange={(value) => setForm({ suggestionType: value })}
                  data={SUGGESTION_TYPES.map((type) => ({ value: type, label: t(`suggester.type.${type}`) }))}
                  aria-label={t('suggester.type')}
                />
                <Text size="xs" c="dimmed">
                  {t(`suggester.typeHelp.${form.suggestionType}`)}
                </Text>
              </Stack>
              {form.suggestionType === 'competitors' && (
                <Card withBorder padding="sm" bg="gray.0">
                  <Text size="sm" fw={600} mb="xs">
                    {t('suggester.competitors')}
                  </Text>
                  <CompetitorPicker app={form.app} country={form.country} selected={form.competitorIds} onSelected={(competitorIds) => setForm({ competitorIds })} />
                </Card>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="md">
              <KeywordsField
                label={t('suggester.required')}
                help={t('suggester.requiredHelp')}
                placeholder={t('suggester.keywordPlaceholder')}
                value={form.requiredText}
                count={requiredKeywords.length}
                onChange={(requiredText) => setForm({ requiredText })}
                testId="required-keywords"
              />
              <KeywordsField
                label={t('suggester.negative')}
                help={t('suggester.negativeHelp')}
                placeholder={t('suggester.negativePlaceholder')}
                value={form.negativeText}
                count={negativeKeywords.length}
                onChange={(negativeText) => setForm({ negativeText })}
                testId="negative-keywords"
              />
            </Stack>
          </Grid.Col>
        </Grid>
        <UnstyledButton mt="lg" onClick={() => setMore((m) => !m)} aria-expanded={more}>
          <Group gap={4}>
            {more ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            <Text size="sm" fw={500} c="blue">
              {t('suggester.more')}
            </Text>
          </Group>
        </UnstyledButton>
        <Collapse expanded={more}>
          <Grid gap="xl" mt="sm">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label={t('suggester.minPopularity')}
                description={t('suggester.minPopularityHelp')}
                min={0}
                max={100}
                step={1}
                clampBehavior="strict"
                allowDecimal={false}
                value={settings.excludedWordsByPopularities}
                onChange={(value) => setSettings({ excludedWordsByPopularities: typeof value === 'number' ? value : 0 })}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="xs">
                <Switch label={t('suggester.withAggregation')} checked={settings.withAggregation} onChange={(e) => setSettings({ withAggregation: e.currentTarget.checked })} />
                <Switch label={t('suggester.withoutDescription')} checked={settings.withoutDescription} onChange={(e) => setSettings({ withoutDescription: e.currentTarget.checked })} />
                <Switch label={t('suggester.withoutApps')} checked={settings.withoutApps} onChange={(e) => setSettings({ withoutApps: e.currentTarget.checked })} />
                <Switch label={t('suggester.withoutShuffle')} checked={settings.withoutShuffle} onChange={(e) => setSettings({ withoutShuffle: e.currentTarget.checked })} />
              </Stack>
            </Grid.Col>
          </Grid>
        </Collapse>
      </Card>
    </Stack>
  );
}
