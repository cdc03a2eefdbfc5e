/**
 * A control only owners, admins and writers may use: for readers it is disabled inside a
 * tooltip saying to ask an admin or editor (a disabled button takes no pointer events, so the
 * tooltip wraps it in a span).
 */
import { Tooltip } from '@mantine/core';
import { cloneElement, type ReactElement } from 'react';
import { t } from '@/i18n';

export function EditorGuard({ canEdit, children }: { canEdit: boolean; children: ReactElement<{ disabled?: boolean }> }) {
  if (canEdit) return children;
  return (
    <Tooltip label={t('attribution.readerHint')} withArrow multiline maw={260}>
      <span data-testid="read-only" style={{ display: 'inline-block' }}>
        {cloneElement(children, { disabled: true })}
      </span>
    </Tooltip>
  );
}
