/**
 * The rule form's inputs bound by `control` and a typed path of its values (the pattern of
 * components/form): selects, multi-selects, tags, checkboxes and the hour picker, each
 * showing its field's error (a client rule's or the server's at the same path).
 */
import { Checkbox, MultiSelect, Select, TagsInput, Text, TextInput, type ComboboxData } from '@mantine/core';
import type { ReactNode } from 'react';
import { get, useController, useFormState, type Control, type Path } from 'react-hook-form';
import type { RuleBody, RuleForm } from '../schema';

export type RuleControl = Control<RuleForm, unknown, RuleBody>;

interface BaseProps {
  control: RuleControl;
  name: Path<RuleForm>;
  label: string;
  /** Shown to screen readers only (the row's inputs share a visible heading). */
  hiddenLabel?: boolean;
  description?: string;
  w?: number | string;
}

const labelProps = (label: string, hidden: boolean | undefined) => (hidden ? { 'aria-label': label } : { label });

/** A field's binding as input props: its value as read by `read`, changes written by `write`. */
export function useBound<V>(control: RuleControl, name: Path<RuleForm>, read: (value: unknown) => V, write: (next: V) => unknown = (next) => next) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return {
    ref: field.ref,
    name: field.name,
    onBlur: field.onBlur,
    value: read(value),
    onChange: (next: V) => field.onChange(write(next)),
    error: fieldState.error?.message,
  };
}

const readText = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
const readList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Text typed in a row of inputs (a condition's value), its label for screen readers only when `hiddenLabel`. */
export function InlineTextField({ control, name, label, hiddenLabel, w, unit }: BaseProps & { unit?: ReactNode }) {
  const bound = useBound<string>(control, name, (v) => readText(v) ?? '', (next) => next);
  const { onChange, ...rest } = bound;
  return (
    <TextInput
      {...labelProps(label, hiddenLabel)}
      {...rest}
      w={w}
      inputMode="decimal"
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={unit}
      rightSectionWidth={unit ? 48 : undefined}
    />
  );
}

export function SelectField({ control, name, label, hiddenLabel, data, w, description, searchable }: BaseProps & { data: ComboboxData; searchable?: boolean }) {
  const bound = useBound<string | null>(control, name, readText, (next) => next ?? '');
  return <Select {...labelProps(label, hiddenLabel)} {...bound} data={data} w={w} description={description} searchable={searchable} allowDeselect={false} comboboxProps={{ withinPortal: true }} />;
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));

/** An hour of the day (a number in the values), 00:00 to 23:00. */
export function HourField({ control, name, label, w }: BaseProps) {
  const bound = useBound<string | null>(control, name, (value) => (typeof value === 'number' ? String(value) : null), (next) => Number(next ?? 0));
  return <Select label={label} {...bound} w={w} allowDeselect={false} data={HOURS} />;
}

/** The first message among a list's item errors (`campaignIds.2`: one of the values chosen). */
function useItemError(control: RuleControl, name: Path<RuleForm>): string | undefined {
  const { errors } = useFormState({ control, name });
  const error: unknown = get(errors, name);
  if (!Array.isArray(error)) return undefined;
  const first = (error as unknown[]).find((e): e is { message: string } => typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string');
  return first?.message;
}

export function MultiSelectField({ control, name, label, hiddenLabel, data, w, searchable, placeholder, description }: BaseProps & { data: ComboboxData; searchable?: boolean; placeholder?: string }) {
  const bound = useBound<string[]>(control, name, readList);
  const itemError = useItemError(control, name);
  return (
    <MultiSelect
      {...labelProps(label, hiddenLabel)}
      {...bound}
      error={bound.error ?? itemError}
      data={data}
      w={w}
      description={description}
      placeholder={placeholder}
      searchable={searchable}
      clearable
      comboboxProps={{ withinPortal: true }}
    />
  );
}

export function TagsField({ control, name, label, hiddenLabel, w, placeholder, description }: BaseProps & { placeholder?: string }) {
  const bound = useBound<string[]>(control, name, readList);
  return <TagsInput {...labelProps(label, hiddenLabel)} {...bound} w={w} placeholder={placeholder} description={description} />;
}

export function CheckboxField({ control, name, label }: BaseProps) {
  const { value, onChange, ...bound } = useBound<boolean>(control, name, (v) => v === true);
  return <Checkbox label={label} {...bound} checked={value} onChange={(event) => onChange(event.currentTarget.checked)} />;
}

/** The error of a list (`actions`, a group's `conditions`): too few, too many. */
/** The message of the error at `name` (a field, or a list's own). */
export function useErrorAt(control: RuleControl, name: Path<RuleForm>): string | undefined {
  const { errors } = useFormState({ control, name });
  const error: { message?: string; root?: { message?: string } } | undefined = get(errors, name);
  return error?.message ?? error?.root?.message;
}

export function ListError({ control, name }: { control: RuleControl; name: Path<RuleForm> }) {
  const message = useErrorAt(control, name);
  if (!message) return null;
  return (
    <Text size="sm" c="red" role="alert">
      {message}
    </Text>
  );
}
