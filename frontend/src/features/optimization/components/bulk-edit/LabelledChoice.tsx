import { SegmentedControl, Stack, Text } from '@mantine/core';

/** A choice of a few values as a full-width segmented control under its label (which names it). */
export function LabelledChoice<T extends string>({ label, value, onChange, data, disabled }: { label: string; value: T; onChange: (value: T) => void; data: { value: T; label: string }[]; disabled?: boolean }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={500}>
        {label}
      </Text>
      <SegmentedControl size="xs" fullWidth aria-label={label} value={value} onChange={(v) => onChange(v)} data={data} disabled={disabled} />
    </Stack>
  );
}
