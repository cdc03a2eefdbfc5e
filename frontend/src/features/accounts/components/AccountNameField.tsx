/**
 * The account name input (docs/product.md#5-add-account-name): required, at most 30 characters,
 * with a counter.
 */
import { Text } from '@mantine/core';
import { useWatch, type Control, type FieldValues, type Path } from 'react-hook-form';
import { TextField } from '@/components/form';
import { t } from '@/i18n';
import { ACCOUNT_NAME_MAX } from '../api/account';

interface AccountNameFieldProps<T extends FieldValues, TOut extends FieldValues> {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
}

export function AccountNameField<T extends FieldValues, TOut extends FieldValues = T>({
  control,
  name,
}: AccountNameFieldProps<T, TOut>) {
  const value: unknown = useWatch({ control, name });
  const length = typeof value === 'string' ? value.length : 0;
  return (
    <TextField
      control={control}
      name={name}
      label={t('accounts.name')}
      autoComplete="off"
      withAsterisk
      maxLength={ACCOUNT_NAME_MAX}
      rightSectionWidth={52}
      rightSection={
        <Text size="xs" c="dimmed" data-testid="name-counter">
          {length}/{ACCOUNT_NAME_MAX}
        </Text>
      }
    />
  );
}
