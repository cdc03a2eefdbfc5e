/**
 * The activity log's date range (docs/product.md#2-other-ui): a start and an end day typed as
 * DD/MM/YYYY (a reversed range is swapped), either of which may be cleared — the list is asked only
 * when both are set (docs/product.md#5-activity-log-search) — and 'Last 30 days' back to the
 * default.
 */
import { Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { displayDay, parseDisplayDay } from '@/features/optimization';
import { t } from '@/i18n';

export interface DayRangeValue {
  start: string | null;
  end: string | null;
}

interface Props {
  value: DayRangeValue;
  /** The default range (the last 30 days). */
  fallback: { start: string; end: string };
  onChange: (range: DayRangeValue) => void;
}

/** A typed day: empty is no day, else it must be a real DD/MM/YYYY day. */
const typed = (text: string): { day: string | null; bad: boolean } => {
  if (text.trim() === '') return { day: null, bad: false };
  const day = parseDisplayDay(text);
  return { day, bad: day === null };
};

export function rangeText(value: DayRangeValue): string {
  return `${value.start ? displayDay(value.start) : '…'} – ${value.end ? displayDay(value.end) : '…'}`;
}

export function ActivityDateRange({ value, fallback, onChange }: Props) {
  const [opened, setOpened] = useState(false);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [touched, setTouched] = useState(false);
  const open = () => {
    setStart(value.start ? displayDay(value.start) : '');
    setEnd(value.end ? displayDay(value.end) : '');
    setTouched(false);
    setOpened(true);
  };
  const from = typed(start);
  const to = typed(end);
  const pick = (range: DayRangeValue) => {
    setOpened(false);
    onChange(range);
  };
  const apply = () => {
    setTouched(true);
    if (from.bad || to.bad) return;
    const swap = from.day !== null && to.day !== null && from.day > to.day;
    pick(swap ? { start: to.day, end: from.day } : { start: from.day, end: to.day });
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button variant="default" leftSection={<IconCalendar size={16} />} onClick={() => (opened ? setOpened(false) : open())} aria-label={t('activity.range.label')} data-testid="activity-range">
          <Text span size="sm" c={value.start && value.end ? undefined : 'dimmed'}>
            {rangeText(value)}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="sm">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <Stack gap="xs" w={220}>
            <TextInput
              label={t('activity.range.start')}
              placeholder="DD/MM/YYYY"
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
              error={touched && from.bad ? t('activity.range.invalid') : undefined}
            />
            <TextInput
              label={t('activity.range.end')}
              placeholder="DD/MM/YYYY"
              value={end}
              onChange={(e) => setEnd(e.currentTarget.value)}
              error={touched && to.bad ? t('activity.range.invalid') : undefined}
            />
            <Group justify="space-between" gap="xs">
              <Button variant="subtle" size="xs" onClick={() => pick(fallback)}>
                {t('activity.range.last30')}
              </Button>
              <Button type="submit" size="xs">
                {t('activity.range.apply')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
