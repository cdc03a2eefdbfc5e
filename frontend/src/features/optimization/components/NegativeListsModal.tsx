/**
 * Negative keyword lists (docs/api/creation.md): the workspace's named lists of negative
 * keywords and where each is applied. Opened from the table toolbar of the campaigns and the
 * negative keywords levels — where a user looks after negatives — so the places offered are
 * the campaigns of the campaign group on screen and, inside a campaign, its ad groups; places
 * in other campaign groups are kept as they are. Before saving, the list is checked
 * (`dryRun`): terms that would block a keyword a place bids on are shown and the user
 * confirms. Saving applies the list at Apple as a background task (the tasks popover).
 */
import { Alert, Badge, Button, Group, Loader, Modal, MultiSelect, SegmentedControl, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useSession } from '@/features/auth';
import { parseKeywordList } from '@/lib/keywords';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import type { EntityId } from '@/lib/ids';
import { showSnackbar } from '@/lib/notifications';
import {
  checkConflicts,
  placeKey,
  placeOfKey,
  useDeleteNegativeList,
  useNegativeList,
  useNegativeLists,
  useSaveNegativeList,
  type Conflict,
  type ListInput,
  type NegativeList,
} from '../api/negative-lists';
import { useReport, type ReportRequest } from '../api/report';

/** The contract's bounds. */
const MAX_NAME = 100;
const MAX_KEYWORDS = 5000;
/** How long typing rests before a changed list is checked for conflicts again. */
const RECHECK_MS = 400;

interface Scope {
  accountId: string;
  orgId: EntityId;
  campaignId: EntityId | null;
}

function rowsRequest(scope: Scope, level: 'CAMPAIGNS' | 'GROUPS'): ReportRequest {
  const today = new Date().toISOString().slice(0, 10);
  return {
    accountId: scope.accountId,
    orgId: scope.orgId,
    level,
    startDate: today,
    endDate: today,
    campaignId: level === 'GROUPS' ? scope.campaignId : null,
    adGroupId: null,
    sort: null,
    page: 1,
    filters: [],
    pageSize: 1000,
  };
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The places a user can pick here: the campaign group's campaigns. */
function usePlaceOptions(scope: Scope) {
  const campaigns = useReport(rowsRequest(scope, 'CAMPAIGNS'));
  const campaignData = (campaigns.data?.items ?? []).filter((r) => text(r.campaignId) !== '').map((r) => ({ value: text(r.campaignId), label: text(r.campaignName) || text(r.campaignId) }));
  return { campaignData, loading: campaigns.isLoading };
}

/** The open campaign's ad groups as places. */
function AdGroupPicker({ scope, campaignId, value, onChange, disabled }: { scope: Scope; campaignId: EntityId; value: string[]; onChange: (keys: string[]) => void; disabled: boolean }) {
  const groups = useReport(rowsRequest({ ...scope, campaignId }, 'GROUPS'));
  const data = (groups.data?.items ?? []).filter((r) => text(r.adGroupId) !== '').map((r) => ({ value: placeKey({ campaignId, adGroupId: text(r.adGroupId) }), label: text(r.adGroupName) || text(r.adGroupId) }));
  return (
    <MultiSelect
      label={t('negLists.adGroups')}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      disabled={disabled}
      nothingFoundMessage={t('suggester.noResults')}
      data-testid="negative-list-ad-groups"
    />
  );
}

function Editor({ scope, list, canEdit, onDone }: { scope: Scope; list: NegativeList | null; canEdit: boolean; onDone: () => void }) {
  const [name, setName] = useState(list?.name ?? '');
  const [typed, setTyped] = useState((list?.keywords ?? []).map((k) => k.text).join('\n'));
  const [matchType, setMatchType] = useState<'EXACT' | 'BROAD'>(list?.keywords[0]?.matchType ?? 'EXACT');
  const options = usePlaceOptions(scope);
  const initial = list?.places ?? [];
  const here = (p: { campaignId: string }) => options.campaignData.some((c) => c.value === p.campaignId) || p.campaignId === scope.campaignId;
  const [picked, setPicked] = useState<string[]>(initial.filter((p) => p.adGroupId === null).map(placeKey));
  const [pickedGroups, setPickedGroups] = useState<string[]>(initial.filter((p) => p.adGroupId !== null && p.campaignId === scope.campaignId).map(placeKey));
  // The dry run's conflicts and the list they were found for: they stand only while the list
  // is still that one, and once a list was checked every change is checked again (the
  // warning goes when its term goes, and comes back when one is typed back).
  const [checked, setChecked] = useState<{ key: string; conflicts: Conflict[] } | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveNegativeList();
  const keywords = parseKeywordList(typed);
  const nameProblem = name.trim() === '' ? t('negLists.nameRequired') : name.trim().length > MAX_NAME ? t('negLists.nameLong') : null;
  const keywordsProblem = keywords.length === 0 ? t('negLists.keywordsRequired') : keywords.length > MAX_KEYWORDS ? t('negLists.keywordsMany') : null;

  // Places elsewhere (another campaign group, another campaign's ad groups) stay as they are.
  const kept = initial.filter((p) => (p.adGroupId === null ? !options.campaignData.some((c) => c.value === p.campaignId) && !options.loading : p.campaignId !== scope.campaignId));
  // Until the campaigns are known every campaign place counts as picked here.
  const pickedHere = options.loading ? picked : picked.filter((k) => here(placeOfKey(k)));
  const input = (): ListInput => ({
    name: name.trim(),
    keywords: keywords.map((k) => ({ text: k, matchType })),
    places: [...pickedHere.map(placeOfKey), ...pickedGroups.map(placeOfKey), ...kept.map((p) => ({ campaignId: p.campaignId, adGroupId: p.adGroupId }))],
  });
  const key = JSON.stringify(input());
  const conflicts = checked?.key === key ? checked.conflicts : null;
  useEffect(() => {
    if (checked === null || checked.key === key || nameProblem || keywordsProblem) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      const body = JSON.parse(key) as ListInput;
      checkConflicts(list?._id ?? null, body, { signal: controller.signal })
        .then((found) => setChecked({ key, conflicts: found }))
        .catch((e: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(e));
        });
    }, RECHECK_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [checked, key, list?._id, nameProblem, keywordsProblem]);
  const store = () =>
    save.mutate(
      { listId: list?._id ?? null, input: input() },
      {
        onSuccess: (saved) => {
          showSnackbar(saved.taskId ? t('negLists.savedApplying') : t('negLists.saved'));
          onDone();
        },
        onError: (e) => setError(errorMessage(e)),
      },
    );
  const check = async () => {
    if (nameProblem || keywordsProblem) return;
    setError(null);
    setChecking(true);
    try {
      const found = await checkConflicts(list?._id ?? null, input());
      setChecked({ key, conflicts: found });
      if (found.length === 0) store();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setChecking(false);
    }
  };
  const placeName = (c: Conflict) => {
    const campaign = options.campaignData.find((o) => o.value === c.campaignId)?.label ?? c.campaignId;
    return c.adGroupId ? `${campaign} › ${t('drill.adGroup')} ${c.adGroupId}` : campaign;
  };

  return (
    <Stack gap="sm" data-testid="negative-list-editor">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <TextInput label={t('negLists.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={MAX_NAME + 10} error={name !== '' ? nameProblem : null} disabled={!canEdit} />
      <Textarea
        label={t('negLists.keywords')}
        description={`${t('negLists.keywordsHelp')} · ${tn('suggester.keywordCount', keywords.length, formatNumber(keywords.length, 0))}`}
        autosize
        minRows={4}
        maxRows={12}
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
        error={typed !== '' ? keywordsProblem : null}
        disabled={!canEdit}
        data-testid="negative-list-keywords"
      />
      <Stack gap={2}>
        <Text size="sm" fw={500}>
          {t('negLists.matchType')}
        </Text>
        <SegmentedControl
          value={matchType}
          onChange={(v) => setMatchType(v === 'BROAD' ? 'BROAD' : 'EXACT')}
          data={[
            { value: 'EXACT', label: t('suggester.match.EXACT') },
            { value: 'BROAD', label: t('suggester.match.BROAD') },
          ]}
          aria-label={t('negLists.matchType')}
          disabled={!canEdit}
        />
      </Stack>
      <MultiSelect
        label={t('negLists.campaigns')}
        description={t('negLists.campaignsHelp')}
        data={options.campaignData}
        value={pickedHere}
        onChange={setPicked}
        searchable
        disabled={!canEdit}
        nothingFoundMessage={t('suggester.noResults')}
        data-testid="negative-list-campaigns"
      />
      {scope.campaignId !== null && <AdGroupPicker scope={scope} campaignId={scope.campaignId} value={pickedGroups} onChange={setPickedGroups} disabled={!canEdit} />}
      {kept.length > 0 && (
        <Text size="xs" c="dimmed">
          {tn('negLists.keptPlaces', kept.length, formatNumber(kept.length, 0))}
        </Text>
      )}
      {conflicts && conflicts.length > 0 && (
        <Alert color="orange" variant="light" title={t('negLists.conflictsTitle')} data-testid="negative-list-conflicts">
          <Stack gap={2}>
            {conflicts.map((c, i) => (
              <Text key={i} size="sm">
                <Text span fw={600}>
                  {c.text} ({c.matchType})
                </Text>{' '}
                {t('negLists.blocks')} «{c.keyword.text}» · {placeName(c)}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('copy.cancel')}
        </Button>
        {conflicts && conflicts.length > 0 ? (
          <Button color="orange" onClick={store} loading={save.isPending} disabled={!canEdit}>
            {t('negLists.saveAnyway')}
          </Button>
        ) : (
          <Button onClick={() => void check()} loading={checking || save.isPending} disabled={!canEdit || nameProblem !== null || keywordsProblem !== null}>
            {t('negLists.save')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function EditExisting({ scope, listId, canEdit, onDone }: { scope: Scope; listId: string; canEdit: boolean; onDone: () => void }) {
  const list = useNegativeList(listId);
  if (list.isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (list.error || !list.data) return <Alert color="red">{list.error ? errorMessage(list.error) : t('common.loading')}</Alert>;
  return <Editor scope={scope} list={list.data} canEdit={canEdit} onDone={onDone} />;
}

function Lists({ canEdit, onEdit }: { canEdit: boolean; onEdit: (listId: string | null) => void }) {
  const lists = useNegativeLists();
  const remove = useDeleteNegativeList();
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <Stack gap="sm" data-testid="negative-lists">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('negLists.help')}
        </Text>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => onEdit(null)} disabled={!canEdit}>
          {t('negLists.new')}
        </Button>
      </Group>
      {lists.isLoading && <Loader size="sm" aria-label={t('common.loading')} />}
      {lists.error && <Alert color="red">{errorMessage(lists.error)}</Alert>}
      {lists.data && lists.data.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('negLists.empty')}
        </Text>
      )}
      {lists.data && lists.data.length > 0 && (
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('negLists.name')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('negLists.keywords')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('negLists.places')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lists.data.map((list) => (
              <Table.Tr key={list._id}>
                <Table.Td>{list.name}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{formatNumber(list.keywordsCount, 0)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>
                  <Badge variant="light" tt="none">
                    {formatNumber(list.placesCount, 0)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => onEdit(list._id)} aria-label={`${t('negLists.edit')}: ${list.name}`}>
                      {t('negLists.edit')}
                    </Button>
                    <Button
                      size="compact-xs"
                      variant={confirming === list._id ? 'filled' : 'subtle'}
                      color="red"
                      disabled={!canEdit}
                      loading={remove.isPending && confirming === list._id}
                      aria-label={`${confirming === list._id ? t('negLists.confirmDelete') : t('negLists.delete')}: ${list.name}`}
                      onClick={() => {
                        if (confirming !== list._id) {
                          setConfirming(list._id);
                          return;
                        }
                        remove.mutate(list._id, { onSuccess: () => setConfirming(null), onError: (e) => showSnackbar(errorMessage(e), 'danger') });
                      }}
                    >
                      {confirming === list._id ? t('negLists.confirmDelete') : t('negLists.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

export function NegativeListsModal({ opened, onClose, accountId, orgId, campaignId }: { opened: boolean; onClose: () => void } & Scope) {
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
          <Editor scope={scope} list={null} canEdit={canEdit} onDone={() => setEditing(null)} />
        ) : (
          <EditExisting scope={scope} listId={editing.listId} canEdit={canEdit} onDone={() => setEditing(null)} />
        ))}
    </Modal>
  );
}
