/**
 * The left filter list by type (docs/product.md#2-activity-log): All changes, Automated rule,
 * Automated Optimization, Quick Start, Manual change, Team, each with its count within the chosen
 * dates and search (`result.counts`).
 */
import { Badge, Card, NavLink } from '@mantine/core';
import { t } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { TAGS, type Tag, type TagCounts } from '../api/notifications';
import { tagLabel } from '../describe';

interface Props {
  value: Tag | null;
  counts: TagCounts | null | undefined;
  onChange: (tag: Tag | null) => void;
}

export function TypeFilter({ value, counts, onChange }: Props) {
  const entries: (Tag | null)[] = [null, ...TAGS];
  return (
    <Card withBorder padding="xs" w={240} miw={240} component="nav" aria-label={t('activity.filterLabel')}>
      {entries.map((tag) => {
        const count = counts ? (tag ? counts[tag] : counts.all) : null;
        return (
          <NavLink
            key={tag ?? 'all'}
            component="button"
            label={tagLabel(tag)}
            active={value === tag}
            aria-current={value === tag ? 'true' : undefined}
            onClick={() => onChange(tag)}
            rightSection={
              count === null ? null : (
                <Badge size="sm" variant={value === tag ? 'filled' : 'light'} color={value === tag ? 'blue' : 'gray'} data-testid={`count-${tag ?? 'all'}`}>
                  {formatNumber(count, 0)}
                </Badge>
              )
            }
          />
        );
      })}
    </Card>
  );
}
