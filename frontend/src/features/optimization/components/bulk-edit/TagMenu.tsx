/** The bulk-edit bar's tag: a tag put on (or taken off) the selected rows, from the tag picker. */
import { Button, Popover } from '@mantine/core';
import { IconTag } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import type { EntityId } from '@/lib/ids';
import { tagTypeOf } from '../../api/bulk-edit';
import type { ReportRow } from '../../api/report';
import type { Level } from '../../paths';
import { ReaderGuard } from '../QuickEdit';
import { carriedTags, TagPicker } from '../TagPicker';

export function TagMenu({ level, accountId, orgId, ids, rowOf, canEdit }: { level: Level; accountId: string; orgId: EntityId; ids: EntityId[]; rowOf: (id: EntityId) => ReportRow | null; canEdit: boolean }) {
  const type = tagTypeOf(level);
  const [open, setOpen] = useState(false);
  if (!type) return null;
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" width={300} trapFocus>
      <Popover.Target>
        <ReaderGuard canEdit={canEdit}>
          <Button size="xs" variant="default" leftSection={<IconTag size={14} />} disabled={!canEdit} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {t('bulk.tag')}
          </Button>
        </ReaderGuard>
      </Popover.Target>
      <Popover.Dropdown aria-label={t('bulk.selectedTagged')}>
        {open && <TagPicker type={type} scope={{ accountId, orgId }} ids={ids} carried={carriedTags(ids.map(rowOf))} onClose={() => setOpen(false)} />}
      </Popover.Dropdown>
    </Popover>
  );
}
