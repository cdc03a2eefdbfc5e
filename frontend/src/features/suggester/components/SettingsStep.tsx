/**
 * Step 5, campaign settings (docs/product.md#2-keyword-suggester): a validated form
 * (react-hook-form + zod) — the countries or regions (where the app is sold), the daily budget, the
 * default CPT bid and an optional CPA goal (checked in the browser with the money rules the quick
 * edits use: a number above 0, the currency's decimals, Apple's minimum), Search Match, the
 * discovery campaign, a custom product page, and whether everything is created paused (default on:
 * nothing spends until the user enables it). The wizard's 'Create campaigns' submits it:
 * `PUT /api/asa/campaigns/asa/all`, then the creation's progress until it ends. A plan limit
 * shows the limit notice (docs/product.md#8-limit-reached).
 */
import { Card, Group, MultiSelect, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useController, useWatch, type Control } from 'react-hook-form';
import { z } from 'zod';
import { isProPlan, LimitNotice } from '@/components/LimitNotice';
import { Form, TextField, useZodForm } from '@/components/form';
import { useSession } from '@/features/auth';
import { moneySchema, optionalMoneySchema } from '@/lib/money';
import { t, tn } from '@/i18n';
import { ApiError, isLimitError } from '@/lib/api-error';
import { currencyOf, formatNumber } from '@/lib/format';
import { useCountries } from '../api/apps';
import { useProductPages } from '../api/creation';
import { campaignTotal, createBody, fillPattern, settingsFieldOf } from '../campaign-plan';
import type { Suggester } from '../hooks/useSuggester';

export const SETTINGS_FORM_ID = 'campaign-settings-form';

/** The form's schema in the campaign group's currency; `sold`: where the app is sold, when known. */
export function settingsSchema(currency: string | null, sold: readonly string[] | null) {
  return z.object({
    countries: z
      .array(z.string())
      .min(1, t('campaignSettings.countriesRequired'))
      .refine((codes) => sold === null || codes.every((c) => sold.includes(c)), t('campaignSettings.countriesNotSold')),
    dailyBudget: moneySchema('dailyBudget', currency),
    // The step's own label in its messages ('Default CPT bid …'), not the table column's.
    defaultBid: moneySchema('defaultBidAmount', currency, { label: t('campaignSettings.defaultBid') }),
    cpaGoal: optionalMoneySchema('cpaGoal', currency),
    searchMatch: z.boolean(),
    discovery: z.boolean(),
    productPageId: z.string().nullable(),
    paused: z.boolean(),
  });
}

type SettingsIn = z.input<ReturnType<typeof settingsSchema>>;
type SettingsOut = z.output<ReturnType<typeof settingsSchema>>;
type SettingsControl = Control<SettingsIn, unknown, SettingsOut>;

function MoneyField({ control, name, label, description, symbol }: { control: SettingsControl; name: 'dailyBudget' | 'defaultBid' | 'cpaGoal'; label: string; description?: string; symbol: string }) {
  return <TextField control={control} name={name} label={label} description={description} inputMode="decimal" leftSection={symbol ? <Text size="sm">{symbol}</Text> : undefined} />;
}

function SwitchField({ control, name, label, description }: { control: SettingsControl; name: 'searchMatch' | 'discovery' | 'paused'; label: string; description: string }) {
  const { field } = useController({ control, name });
  return <Switch label={label} description={description} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} onBlur={field.onBlur} />;
}

export function SettingsStep({ suggester, onDiscovery }: { suggester: Suggester; onDiscovery: (on: boolean) => void }) {
  const { form: search } = suggester.state;
  const app = search.app;
  const currency = suggester.currency;
  const symbol = currencyOf(currency)?.symbol ?? currency ?? '';
  const countries = useCountries();
  const pages = useProductPages(suggester.creationScope, app?.adamId ?? null);
  const { user } = useSession();
  const [limit, setLimit] = useState<string | null>(null);
  const sold = app?.countries && app.countries.length > 0 ? app.countries : null;
  const schema = useMemo(() => settingsSchema(currency, sold), [currency, sold]);
  const form = useZodForm(schema, {
    countries: search.country ? [search.country] : [],
    dailyBudget: '',
    defaultBid: '',
    cpaGoal: '',
    searchMatch: false,
    discovery: true,
    productPageId: null,
    paused: true,
  });
  const discovery = useWatch({ control: form.control, name: 'discovery' });
  useEffect(() => onDiscovery(discovery), [discovery, onDiscovery]);
  const countryField = useController({ control: form.control, name: 'countries' });
  const pageField = useController({ control: form.control, name: 'productPageId' });

  const countryData = (countries.data ?? []).filter((c) => sold === null || sold.includes(c.code)).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  const pageData = (pages.data ?? []).filter((p) => !p.isDefault).map((p) => ({ value: p.id, label: p.name }));

  const submit = async (values: SettingsOut) => {
    if (!app || !currency) return;
    setLimit(null);
    const discoveryName = fillPattern(suggester.state.names.pattern, { app: app.name, country: values.countries.join(', '), segment: t('suggester.segment.discovery'), match: '' });
    const body = createBody(suggester.plan, suggester.state.names.edits, values, { adamId: app.adamId, currency, discoveryName });
    try {
      await suggester.create(body);
    } catch (error) {
      if (isLimitError(error)) {
        setLimit(error.meta.type);
        return;
      }
      // The body's fields, as the form names them.
      if (error instanceof ApiError && error.errors.length > 0) {
        throw new ApiError(
          error.status,
          error.message,
          error.errors.map((e) => ({ field: settingsFieldOf(e.field) ?? e.field, message: e.message })),
          error.meta,
        );
      }
      throw error;
    }
  };

  const total = campaignTotal(suggester.plan, discovery);
  return (
    <Card withBorder padding="md" data-testid="campaign-settings">
      <Form form={form} onSubmit={submit} name={t('suggester.step.campaignSettings')} id={SETTINGS_FORM_ID}>
        {limit && <LimitNotice type={limit} pro={isProPlan(user?.purchase)} />}
        {!currency && (
          <Text size="sm" c="red">
            {t('campaignSettings.noCurrency')}
          </Text>
        )}
        <MultiSelect
          label={t('campaignSettings.countries')}
          description={sold ? t('campaignSettings.countriesSold') : t('campaignSettings.countriesHelp')}
          searchable
          data={countryData}
          value={countryField.field.value}
          onChange={countryField.field.onChange}
          onBlur={countryField.field.onBlur}
          error={countryField.fieldState.error?.message}
          nothingFoundMessage={t('suggester.noResults')}
          data-testid="settings-countries"
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <MoneyField control={form.control} name="dailyBudget" label={t('campaignSettings.dailyBudget')} description={t('campaignSettings.dailyBudgetHelp')} symbol={symbol} />
          <MoneyField control={form.control} name="defaultBid" label={t('campaignSettings.defaultBid')} description={t('campaignSettings.defaultBidHelp')} symbol={symbol} />
          <MoneyField control={form.control} name="cpaGoal" label={t('campaignSettings.cpaGoal')} description={t('campaignSettings.cpaGoalHelp')} symbol={symbol} />
        </SimpleGrid>
        <Select
          label={t('campaignSettings.productPage')}
          description={t('campaignSettings.productPageHelp')}
          placeholder={t('campaignSettings.defaultPage')}
          data={pageData}
          value={pageField.field.value}
          onChange={pageField.field.onChange}
          clearable
          disabled={pages.isLoading || pageData.length === 0}
          error={pageField.fieldState.error?.message ?? (pages.error ? pages.error.message : undefined)}
          data-testid="settings-product-page"
        />
        <Stack gap="sm">
          <SwitchField control={form.control} name="searchMatch" label={t('campaignSettings.searchMatch')} description={t('campaignSettings.searchMatchHelp')} />
          <SwitchField control={form.control} name="discovery" label={t('campaignSettings.discovery')} description={t('campaignSettings.discoveryHelp')} />
          <SwitchField control={form.control} name="paused" label={t('campaignSettings.paused')} description={t('campaignSettings.pausedHelp')} />
        </Stack>
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="settings-total">
            {tn('suggester.campaignTotal', total, formatNumber(total, 0))}
          </Text>
        </Group>
      </Form>
    </Card>
  );
}
