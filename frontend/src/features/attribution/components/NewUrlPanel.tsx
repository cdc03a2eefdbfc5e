/**
 * The postback URL just made (Connect or Rotate), and the custom server's secret, shown this
 * once: each in full with a Copy button, under a warning that it will not be shown again.
 */
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { t } from '@/i18n';
import type { Connected } from '../api/connect';

function Secret({ label, value, copyLabel, testId }: { label: string; value: string; copyLabel: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block data-testid={testId} style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 13 }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button onClick={copy} variant={copied ? 'light' : 'filled'} color={copied ? 'teal' : 'blue'} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} aria-label={copyLabel} style={{ flexShrink: 0 }}>
              {copied ? t('attribution.copied') : t('attribution.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

export function NewUrlPanel({ connected }: { connected: Connected }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} />} title={t('attribution.newUrlTitle')} role="region" aria-label={t('attribution.newUrlTitle')} styles={{ title: { fontSize: 'var(--mantine-font-size-md)' } }}>
      <Stack gap="md">
        <Text size="sm" fw={500}>
          {t('attribution.newUrlWarning')}
        </Text>
        <Secret label={`${t('attribution.urlLabel')} (${connected.setup.method})`} value={connected.setup.url} copyLabel={t('attribution.copyUrl')} testId="new-url" />
        {connected.secret && (
          <>
            <Secret label={t('attribution.secretTitle')} value={connected.secret} copyLabel={t('attribution.copySecret')} testId="new-secret" />
            <Text size="xs" c="dimmed">
              {t('attribution.secretWarning')}
            </Text>
          </>
        )}
      </Stack>
    </Alert>
  );
}
