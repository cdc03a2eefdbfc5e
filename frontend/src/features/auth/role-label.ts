/** docs/product.md#6-roles-and-route-limits: writer is shown as Editor, reader as Viewer. */
import type { Role } from './api/user';
import { t, type MessageKey } from '@/i18n';

const ROLE_LABELS: Record<Role, MessageKey> = {
  owner: 'role.owner',
  admin: 'role.admin',
  writer: 'role.writer',
  reader: 'role.reader',
};

export function roleLabel(role: Role): string {
  return t(ROLE_LABELS[role]);
}
