/** A level's table with no rows: a card saying why (nothing synced yet, no data in the range …). */
import { Card, Stack, Text } from '@mantine/core';
import { IconTableOff } from '@tabler/icons-react';

export function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <Card withBorder padding={0}>
      <Stack align="center" gap={4} py={56} px="md" data-testid="empty-state">
        <IconTableOff size={32} color="var(--mantine-color-gray-5)" aria-hidden />
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed" ta="center" maw={460}>
          {text}
        </Text>
      </Stack>
    </Card>
  );
}
