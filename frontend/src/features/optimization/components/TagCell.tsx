/**
 * A row's tag cell: its tags in their colours and, for users who may edit, a button that
 * opens the tag picker for that row alone (add, remove, create, rename, recolour, delete).
 * The picker and its queries exist only while it is open, so a long page's cells stay cheap.
 */
import { ActionIcon, Popover } from '@mantine/core';
import { IconTag } from '@tabler/icons-react';
import { useState } from 'react';
import { t } from '@/i18n';
import type { ReportRow } from '../api/report';
import type { TagScope } from '../api/tags';
import { columnOf } from '../columns';
import type { Level } from '../paths';
import { Cell } from './cells';
import css from './cells.module.css';
import { carriedTags, TagPicker } from './TagPicker';

export interface TagCellContext {
  level: Level;
  /** The rows' tag type (CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS). */
  type: string;
  scope: TagScope;
  canEdit: boolean;
}

export function TagCell({ context, row, id, name }: { context: TagCellContext; row: ReportRow; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const badges = <Cell level={context.level} column={columnOf(context.level, 'tag')} value={row.tag} currency={null} />;
  if (!context.canEdit) return badges;
  return (
    <span className={css.inline}>
      {badges}
      <Popover opened={open} onChange={setOpen} position="bottom-start" shadow="md" width={300} trapFocus>
        <Popover.Target>
          <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`${t('tags.editRow')}: ${name}`} aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="edit-tags">
            <IconTag size={14} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>{open && <TagPicker type={context.type} scope={context.scope} ids={[id]} carried={carriedTags([row])} onClose={() => setOpen(false)} />}</Popover.Dropdown>
      </Popover>
    </span>
  );
}
