/**
 * The workspace's purchases, newest first (`purchase/all`;
 * docs/product.md#8-trial-and-purchase-messages: a failure reads 'An error has occurred while
 * fetching purchases.' and the message).
 */
import { Alert, Badge, Card, Stack, Table, Text } from '@mantine/core';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { usePurchases } from '../api/get-purchases';
import type { Purchase } from '../api/plan';
import { purchaseKind, purchaseStatus } from '../labels';

const STATUS_COLORS = { active: 'teal', ended: 'gray', paymentFailed: 'red', upcoming: 'blue' } as const;

function PurchaseRow({ purchase, now }: { purchase: Purchase; now: number }) {
  const status = purchaseStatus(purchase, now);
  return (
    <Table.Tr>
      <Table.Td tt="capitalize">{purchase.name}</Table.Td>
      <Table.Td>{purchaseKind(purchase)}</Table.Td>
      <Table.Td>{formatDate(purchase.startedAt)}</Table.Td>
      <Table.Td>{purchase.offAccountTime === null ? t('plans.noEnd') : formatDate(purchase.offAccountTime)}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[status]} variant="light">
          {t(`plans.purchase.${status}`)}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}

export function PurchasesCard() {
  const purchases = usePurchases();
  // Statuses as of the answer (the list is asked again whenever the plan changes).
  const now = purchases.dataUpdatedAt;
  return (
    <Card withBorder padding="lg" data-testid="purchases">
      <Stack gap="md">
        <Text fw={600}>{t('plans.purchases')}</Text>
        {purchases.isError && (
          <Alert color="red">
            {t('plans.purchasesFailed')} {errorMessage(purchases.error)}
          </Alert>
        )}
        {purchases.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('plans.noPurchases')}
          </Text>
        )}
        {purchases.data && purchases.data.length > 0 && (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('plans.col.plan')}</Table.Th>
                <Table.Th>{t('plans.col.kind')}</Table.Th>
                <Table.Th>{t('plans.col.started')}</Table.Th>
                <Table.Th>{t('plans.col.ends')}</Table.Th>
                <Table.Th>{t('plans.col.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {purchases.data.map((p) => (
                <PurchaseRow key={p.id} purchase={p} now={now} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
