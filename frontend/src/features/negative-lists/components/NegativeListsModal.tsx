/**
 * Negative keyword lists (docs/api/creation.md): the workspace's named lists of negative
 * keywords and where each is applied. Opened from the table toolbar of the campaigns and the
 * negative keywords levels — where a user looks after negatives — so the places offered are
 * the campaigns of the campaign group on screen and, inside a campaign, its ad groups; places
 * in other campaign groups are kept as they are. Before saving, the list is checked
 * (`dryRun`): terms that would block a keyword a place bids on are shown and the user
 * confirms. Saving applies the list at Apple as a background task (the tasks popover). The
 * screen passes the places it offers (`places`, a `PlaceSource`).
 */
import { Alert, Loader, Modal } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useNegativeList } from '../api/get-negative-list';
import { ListEditor } from './ListEditor';
import { Lists } from './ListsTable';
import type { ListScope, PlaceSource } from './places';

function EditExisting({ places, scope, listId, canEdit, onDone }: { places: PlaceSource; scope: ListScope; listId: string; canEdit: boolean; onDone: () => void }) {
  const list = useNegativeList(listId);
  if (list.isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (list.error || !list.data) return <Alert color="red">{list.error ? errorMessage(list.error) : t('common.loading')}</Alert>;
  return <ListEditor places={places} scope={scope} list={list.data} canEdit={canEdit} onDone={onDone} />;
}

export interface NegativeListsModalProps extends ListScope {
  opened: boolean;
  onClose: () => void;
  places: PlaceSource;
}

export function NegativeListsModal({ opened, onClose, accountId, orgId, campaignId, places }: NegativeListsModalProps) {
  const { user } = useSession();
  const canEdit = user !== null && user.permission !== 'reader';
  const [editing, setEditing] = useState<{ listId: string | null } | null>(null);
  const scope = useMemo(() => ({ accountId, orgId, campaignId }), [accountId, orgId, campaignId]);
  const close = () => {
    setEditing(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('negLists.title')} size="xl" closeButtonProps={{ 'aria-label': t('common.close') }}>
      {opened &&
        (editing === null ? (
          <Lists canEdit={canEdit} onEdit={(listId) => setEditing({ listId })} />
        ) : editing.listId === null ? (
          <ListEditor places={places} scope={scope} list={null} canEdit={canEdit} onDone={() => setEditing(null)} />
        ) : (
          <EditExisting places={places} scope={scope} listId={editing.listId} canEdit={canEdit} onDone={() => setEditing(null)} />
        ))}
    </Modal>
  );
}
