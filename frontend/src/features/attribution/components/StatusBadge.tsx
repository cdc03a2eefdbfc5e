/** An integration's status: Active (green), Loading data (yellow), Not connected (grey). */
import { Badge } from '@mantine/core';
import { t } from '@/i18n';
import type { Integration } from '../api/get-integrations';
import { statusView } from '../providers';

export function StatusBadge({ item }: { item: Pick<Integration, 'connected' | 'status'> }) {
  const view = statusView(item);
  return (
    <Badge color={view.color} variant="light" tt="none" style={{ flexShrink: 0 }}>
      {t(view.label)}
    </Badge>
  );
}
