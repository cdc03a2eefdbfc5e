import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useFieldArray } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '@/lib/api-error';
import { Form, SubmitButton, TextField, useZodForm, type FieldProps } from '.';

const ruleSchema = z.object({
  name: z.string().min(1, 'Please complete this field to continue'),
  conditions: z.array(z.object({ metric: z.string(), value: z.string() })),
});
type RuleValues = z.infer<typeof ruleSchema>;

function RuleForm({ onSubmit }: { onSubmit: (values: RuleValues) => Promise<unknown> }) {
  const form = useZodForm(ruleSchema, {
    name: 'Pause expensive keywords',
    conditions: [
      { metric: 'spend', value: '10' },
      { metric: 'taps', value: '' },
    ],
  });
  const { fields } = useFieldArray({ control: form.control, name: 'conditions' });
  return (
    <Form form={form} onSubmit={onSubmit} name="Rule">
      <TextField control={form.control} name="name" label="Rule name" />
      {fields.map((field, index) => (
        <TextField key={field.id} control={form.control} name={`conditions.${index}.value`} label={`Condition ${index + 1}`} />
      ))}
      <SubmitButton>Save</SubmitButton>
    </Form>
  );
}

function renderForm(onSubmit: (values: RuleValues) => Promise<unknown>) {
  render(
    <MantineProvider env="test">
      <RuleForm onSubmit={onSubmit} />
    </MantineProvider>,
  );
}

describe('<Form> with nested fields', () => {
  it("types field names as paths of the form's values", () => {
    const names: FieldProps<RuleValues>['name'][] = ['name', 'conditions', 'conditions.1.value'];
    // @ts-expect-error a misspelt path does not compile
    const misspelt: FieldProps<RuleValues>['name'] = 'conditions.0.valeu';
    expect([...names, misspelt]).toHaveLength(4);
  });

  it('submits the values of nested fields', async () => {
    const onSubmit = jest.fn<Promise<void>, [RuleValues]>().mockResolvedValue(undefined);
    renderForm(onSubmit);
    await userEvent.type(screen.getByLabelText('Condition 2'), '25');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      conditions: [
        { metric: 'spend', value: '10' },
        { metric: 'taps', value: '25' },
      ],
    });
  });

  it('shows a server error for conditions.1.value under that condition', async () => {
    renderForm(() => Promise.reject(new ApiError(400, 'The rule is invalid', [{ field: 'conditions.1.value', message: 'Enter a number' }])));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Condition 2')).toHaveAccessibleDescription('Enter a number'));
    expect(screen.getByLabelText('Condition 1')).not.toHaveAccessibleDescription('Enter a number');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a server error without a field above the form', async () => {
    renderForm(() => Promise.reject(new ApiError(403, 'LIMIT_HAS_BEEN_REACHED')));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('LIMIT_HAS_BEEN_REACHED');
  });
});
