/**
 * The date range picker (docs/product.md#2-other-ui): the named ranges, and a custom range typed as
 * DD/MM/YYYY (start and end swapped when reversed). The button shows the range's name and
 * its days.
 */
import { Button, Divider, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { t, type MessageKey } from '@/i18n';
import { customRange, displayDay, parseDisplayDay, presetRange, RANGE_PRESETS, type DayRange } from '../date-range';

interface Props {
  value: DayRange;
  today: string;
  onChange: (range: DayRange) => void;
}

export function DateRangePicker({ value, today, onChange }: Props) {
  const [opened, setOpened] = useState(false);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [touched, setTouched] = useState(false);
  const open = () => {
    setStart(displayDay(value.start));
    setEnd(displayDay(value.end));
    setTouched(false);
    setOpened(true);
  };
  const startDay = parseDisplayDay(start);
  const endDay = parseDisplayDay(end);
  const name = value.preset ? t(`range.${value.preset}` as MessageKey) : t('range.custom');
  const pick = (range: DayRange) => {
    setOpened(false);
    onChange(range);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconCalendar size={16} />}
          onClick={() => (opened ? setOpened(false) : open())}
          aria-label={t('range.label')}
          data-testid="date-range"
        >
          <Text span size="sm" fw={600} mr={6}>
            {name}
          </Text>
          <Text span size="sm" c="dimmed">
            {displayDay(value.start)} – {displayDay(value.end)}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <Stack gap={2} miw={150} role="listbox" aria-label={t('range.label')}>
            {RANGE_PRESETS.map((preset) => (
              <Button
                key={preset}
                role="option"
                aria-selected={value.preset === preset}
                variant={value.preset === preset ? 'light' : 'subtle'}
                color={value.preset === preset ? 'blue' : 'gray'}
                justify="flex-start"
                size="compact-sm"
                fw={value.preset === preset ? 600 : 400}
                onClick={() => pick(presetRange(preset, today))}
              >
                {t(`range.${preset}`)}
              </Button>
            ))}
          </Stack>
          <Divider orientation="vertical" />
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setTouched(true);
              if (startDay && endDay) pick(customRange(startDay, endDay));
            }}
          >
            <Stack gap="xs" w={180}>
              <Text size="sm" fw={600}>
                {t('range.custom')}
              </Text>
              <TextInput
                label={t('range.start')}
                placeholder="DD/MM/YYYY"
                value={start}
                onChange={(e) => setStart(e.currentTarget.value)}
                error={touched && !startDay ? t('range.invalid') : undefined}
              />
              <TextInput
                label={t('range.end')}
                placeholder="DD/MM/YYYY"
                value={end}
                onChange={(e) => setEnd(e.currentTarget.value)}
                error={touched && !endDay ? t('range.invalid') : undefined}
              />
              <Button type="submit" size="xs">
                {t('range.apply')}
              </Button>
            </Stack>
          </form>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
