/**
 * Step 4, campaign naming (docs/product.md#2-keyword-suggester): one campaign per segment holding
 * keywords, with an ad group per match type the segment chose. Names come from a pattern ({app},
 * {country}, {segment}, {match}) and each can be typed over; a name is flagged when empty, too
 * long, twice in the list, or already a campaign of the campaign group (asked of
 * `POST /api/asa/campaigns/exists` as the names settle).
 */
import { Badge, Button, Card, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { t, tn, type MessageKey } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { GROUP_NAMES, MAX_CAMPAIGN_NAME, type NameProblem } from '../campaign-plan';
import type { Suggester } from '../hooks/useSuggester';
import { matchTypesOf } from '../segmentation';

const PROBLEM_TEXT: Record<NameProblem, MessageKey> = {
  empty: 'naming.empty',
  long: 'naming.long',
  duplicate: 'naming.duplicate',
  exists: 'naming.exists',
};

export function NamingStep({ suggester }: { suggester: Suggester }) {
  const { plan, campaignNames, problems, naming, segmentLabel } = suggester;
  const { pattern } = suggester.state.names;
  return (
    <Card withBorder padding={0} data-testid="naming">
      <Stack gap="sm" p="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <TextInput
            w={{ base: '100%', sm: 420 }}
            label={t('naming.pattern')}
            description={t('naming.patternHelp')}
            value={pattern}
            onChange={(e) => naming.setPattern(e.currentTarget.value)}
            data-testid="name-pattern"
          />
          <Group gap="sm">
            {suggester.checkingNames && <Loader size="xs" aria-label={t('naming.checking')} />}
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={naming.reset}>
              {t('naming.reset')}
            </Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed" data-testid="campaign-total">
          {tn('suggester.campaignTotal', plan.length, formatNumber(plan.length, 0))}
        </Text>
      </Stack>
      <Table verticalSpacing={8} data-testid="naming-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('naming.segment')}</Table.Th>
            <Table.Th>{t('naming.adGroups')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('naming.keywords')}</Table.Th>
            <Table.Th w="50%">{t('naming.name')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plan.map((campaign, i) => {
            const problem = problems[i] ?? null;
            const label = segmentLabel(campaign.segment);
            return (
              <Table.Tr key={campaign.key} data-testid={`campaign-row-${campaign.key}`}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {label}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {matchTypesOf(campaign.match).map((m) => (
                      <Badge key={m} size="sm" variant="light" tt="none">
                        {GROUP_NAMES[m]}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{formatNumber(campaign.keywords.length, 0)}</Table.Td>
                <Table.Td>
                  <TextInput
                    size="sm"
                    value={campaignNames[i] ?? ''}
                    maxLength={MAX_CAMPAIGN_NAME + 20}
                    onChange={(e) => naming.setName(campaign.key, e.currentTarget.value, campaign.patternName)}
                    aria-label={`${t('naming.nameOf')} ${label}`}
                    error={problem ? t(PROBLEM_TEXT[problem]) : undefined}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
