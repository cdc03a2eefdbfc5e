/**
 * The header's breadcrumbs of the drill-down (docs/product.md#2-layout: All accounts > Account >
 * Campaign Group > Campaign > Ad group): every level above the page links to it, the page's own is
 * plain text.
 */
import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '@/i18n';

export interface Crumb {
  label: string;
  /** The level's address (with the query carried down), or null for the page itself. */
  to: string | null;
}

export function Crumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <Breadcrumbs aria-label={t('drill.breadcrumbs')} data-testid="breadcrumbs" separatorMargin={6}>
      {crumbs.map((crumb, index) =>
        crumb.to && index < crumbs.length - 1 ? (
          <Anchor key={index} component={Link} to={crumb.to} size="sm">
            {crumb.label}
          </Anchor>
        ) : (
          <Text key={index} size="sm" c={index === crumbs.length - 1 ? undefined : 'dimmed'} fw={index === crumbs.length - 1 ? 600 : 400} aria-current={index === crumbs.length - 1 ? 'page' : undefined}>
            {crumb.label}
          </Text>
        ),
      )}
    </Breadcrumbs>
  );
}
