/** The 'Alternative invoice email' form of the general settings. */
import { Group } from '@mantine/core';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import type { User } from '@/features/auth';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { changeValueInputSchema, useChangeValue, type ChangeValueInput } from '../api/change-value';

export function AlternativeInvoiceEmailForm({ user }: { user: User }) {
  const form = useZodForm(changeValueInputSchema, {
    alternativeInvoiceEmail: user.alternativeInvoiceEmail ?? '',
  });
  const { mutateAsync } = useChangeValue();
  const onSubmit = async (values: ChangeValueInput) => {
    const saved = await mutateAsync(values);
    form.reset({ alternativeInvoiceEmail: saved.alternativeInvoiceEmail ?? '' });
    showSnackbar(t('settings.saved'));
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('settings.alternativeInvoiceEmail')}>
      <TextField
        control={form.control}
        name="alternativeInvoiceEmail"
        type="email"
        label={t('settings.alternativeInvoiceEmail')}
        description={t('settings.alternativeInvoiceEmailHint')}
        autoComplete="email"
      />
      <Group>
        <SubmitButton>{t('settings.save')}</SubmitButton>
      </Group>
    </Form>
  );
}
