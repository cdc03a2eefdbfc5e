/**
 * The editor of one negative keyword list (new, or one the server answered): its name, terms
 * and match type, and the places it is applied to here (places elsewhere are kept as they
 * are). Saving checks the list first (`dryRun`): terms that would block a keyword a place bids
 * on are shown and the user confirms.
 */
import { Alert, Button, Group, MultiSelect, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { t, tn } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import type { EntityId } from '@/lib/ids';
import { parseKeywordList } from '@/lib/keywords';
import { showSnackbar } from '@/lib/notifications';
import { checkConflicts } from '../api/check-conflicts';
import { placeKey, placeOfKey, type Conflict, type ListInput, type NegativeList } from '../api/negative-list';
import { useSaveNegativeList } from '../api/save-negative-list';
import type { ListScope, PlaceSource } from './places';

/** The contract's bounds. */
const MAX_NAME = 100;
const MAX_KEYWORDS = 5000;
/** How long typing rests before a changed list is checked for conflicts again. */
const RECHECK_MS = 400;

/** The open campaign's ad groups as places. */
function AdGroupPicker({
  places,
  scope,
  campaignId,
  value,
  onChange,
  disabled,
}: {
  places: PlaceSource;
  scope: ListScope;
  campaignId: EntityId;
  value: string[];
  onChange: (keys: string[]) => void;
  disabled: boolean;
}) {
  return (
    <places.AdGroups scope={scope} campaignId={campaignId}>
      {(groups) => (
        <MultiSelect
          label={t('negLists.adGroups')}
          data={groups.map((g) => ({ value: placeKey({ campaignId, adGroupId: g.id }), label: g.label }))}
          value={value}
          onChange={onChange}
          searchable
          disabled={disabled}
          nothingFoundMessage={t('suggester.noResults')}
          data-testid="negative-list-ad-groups"
        />
      )}
    </places.AdGroups>
  );
}

interface EditorProps {
  places: PlaceSource;
  scope: ListScope;
  list: NegativeList | null;
  canEdit: boolean;
  onDone: () => void;
}

export function ListEditor(props: EditorProps) {
  const { places, scope } = props;
  return (
    <places.Campaigns scope={scope}>
      {({ options, loading }) => <Editor {...props} options={{ campaignData: options.map((o) => ({ value: o.id, label: o.label })), loading }} />}
    </places.Campaigns>
  );
}

function Editor({ places, scope, list, canEdit, onDone, options }: EditorProps & { options: { campaignData: { value: string; label: string }[]; loading: boolean } }) {
  const [name, setName] = useState(list?.name ?? '');
  const [typed, setTyped] = useState((list?.keywords ?? []).map((k) => k.text).join('\n'));
  const [matchType, setMatchType] = useState<'EXACT' | 'BROAD'>(list?.keywords[0]?.matchType ?? 'EXACT');
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
      {scope.campaignId !== null && <AdGroupPicker places={places} scope={scope} campaignId={scope.campaignId} value={pickedGroups} onChange={setPickedGroups} disabled={!canEdit} />}
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
