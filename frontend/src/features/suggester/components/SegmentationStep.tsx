/**
 * Step 3, keyword segmentation (docs/product.md#2-keyword-suggester): the selected keywords split
 * into segments — Brand, Competitor, Generic/category and the segments the user makes and names.
 * Keywords are ticked (one by one or a whole segment) and moved to another segment in bulk, or
 * dragged onto one; each segment chooses its match types (Exact, Broad, or both as two ad groups of
 * its campaign). 'Reset to automatic' puts every keyword back where the rules put it.
 */
import { ActionIcon, Badge, Button, Card, Checkbox, Group, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconPencil, IconPlus, IconRefresh, IconTrash, IconX } from '@tabler/icons-react';
import { useMemo, useState, type DragEvent } from 'react';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import type { Suggester } from '../hooks/useSuggester';
import type { PickedKeyword } from '../saved';
import { keywordsBySegment, MAX_MANUAL_SEGMENTS, MAX_SEGMENT_NAME, segmentNameProblem, type MatchChoice, type Segment } from '../segmentation';

const MATCH_CHOICES: MatchChoice[] = ['EXACT', 'BROAD', 'BOTH'];
const KIND_COLORS: Record<Segment['kind'], string> = { brand: 'grape', competitor: 'orange', generic: 'blue', manual: 'teal' };
const DRAG_TYPE = 'application/x-searchdeck-keywords';

function nameError(problem: ReturnType<typeof segmentNameProblem>): string | null {
  if (problem === 'taken') return t('segments.nameTaken');
  if (problem === 'long') return t('segments.nameLong');
  return null;
}

function SegmentTitle({ segment, label, suggester }: { segment: Segment; label: string; suggester: Suggester }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(label);
  const problem = editing ? segmentNameProblem(draft, suggester.groups.segments, suggester.segmentLabel, segment.id) : null;
  if (segment.kind !== 'manual') {
    return (
      <Group gap={6}>
        <Badge color={KIND_COLORS[segment.kind]} variant="light" tt="none" size="lg">
          {label}
        </Badge>
      </Group>
    );
  }
  if (editing) {
    const save = () => {
      if (problem) return;
      suggester.segmentation.rename(segment.id, draft);
      setEditing(false);
    };
    return (
      <Group gap={4} wrap="nowrap" align="flex-start">
        <TextInput
          size="xs"
          value={draft}
          maxLength={MAX_SEGMENT_NAME}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && save()}
          aria-label={t('segments.rename')}
          error={nameError(problem)}
          autoFocus
        />
        <ActionIcon variant="subtle" aria-label={t('segments.save')} onClick={save} disabled={problem !== null}>
          <IconCheck size={16} />
        </ActionIcon>
        <ActionIcon variant="subtle" color="gray" aria-label={t('segments.cancel')} onClick={() => setEditing(false)}>
          <IconX size={16} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={KIND_COLORS.manual} variant="light" tt="none" size="lg">
        {label}
      </Badge>
      <Tooltip label={t('segments.rename')}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={`${t('segments.rename')}: ${label}`}
          onClick={() => {
            setDraft(label);
            setEditing(true);
          }}
        >
          <IconPencil size={14} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('segments.delete')}>
        <ActionIcon variant="subtle" color="red" size="sm" aria-label={`${t('segments.delete')}: ${label}`} onClick={() => suggester.segmentation.remove(segment.id)}>
          <IconTrash size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function SegmentCard({
  segment,
  keywords,
  checked,
  onCheck,
  onDropKeywords,
  onDragKeyword,
  suggester,
}: {
  segment: Segment;
  keywords: PickedKeyword[];
  checked: ReadonlySet<string>;
  onCheck: (names: string[], on: boolean) => void;
  onDropKeywords: (to: string, names: string[]) => void;
  onDragKeyword: (event: DragEvent, name: string) => void;
  suggester: Suggester;
}) {
  const label = suggester.segmentLabel(segment);
  const [over, setOver] = useState(false);
  const all = keywords.length > 0 && keywords.every((k) => checked.has(k.name));
  const some = keywords.some((k) => checked.has(k.name));
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const data = event.dataTransfer.getData(DRAG_TYPE);
    if (!data) return;
    try {
      const names = JSON.parse(data) as unknown;
      if (Array.isArray(names)) onDropKeywords(segment.id, names.filter((n): n is string => typeof n === 'string'));
    } catch {
      // Not ours.
    }
  };
  return (
    <Card
      withBorder
      padding="sm"
      data-testid={`segment-${segment.id}`}
      aria-label={label}
      role="region"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      style={over ? { outline: '2px dashed var(--mantine-color-blue-5)' } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <SegmentTitle segment={segment} label={label} suggester={suggester} />
          <Text size="sm" c="dimmed" data-testid={`segment-count-${segment.id}`}>
            {tn('suggester.keywordCount', keywords.length, formatNumber(keywords.length, 0))}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t(`segments.help.${segment.kind}`)}
        </Text>
        <SegmentedControl
          size="xs"
          fullWidth
          value={segment.match}
          onChange={(value) => suggester.segmentation.setMatch(segment.id, value)}
          data={MATCH_CHOICES.map((m) => ({ value: m, label: t(`suggester.match.${m}`) }))}
          aria-label={`${t('segments.matchOf')} ${label}`}
        />
        {keywords.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="sm">
            {t('segments.empty')}
          </Text>
        ) : (
          <>
            <Checkbox
              size="xs"
              label={t('segments.selectAll')}
              checked={all}
              indeterminate={some && !all}
              onChange={(e) => onCheck(keywords.map((k) => k.name), e.currentTarget.checked)}
              aria-label={`${t('segments.selectAll')}: ${label}`}
            />
            <ScrollArea.Autosize mah={260} type="auto">
              <Stack gap={4}>
                {keywords.map((k) => (
                  <Group key={k.name} gap={6} wrap="nowrap" draggable onDragStart={(e) => onDragKeyword(e, k.name)} style={{ cursor: 'grab' }} data-testid="segment-keyword">
                    <Checkbox size="xs" checked={checked.has(k.name)} onChange={(e) => onCheck([k.name], e.currentTarget.checked)} aria-label={`${t('suggester.selectRow')} ${k.name}`} />
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {k.name}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </>
        )}
      </Stack>
    </Card>
  );
}

export function SegmentationStep({ suggester }: { suggester: Suggester }) {
  const { groups, segmentation, segmentLabel } = suggester;
  const { selected } = suggester.state;
  const bySegment = useMemo(() => keywordsBySegment(selected, groups.segments), [selected, groups.segments]);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const manualCount = groups.segments.filter((s) => s.kind === 'manual').length;
  const newProblem = newName.trim() === '' ? null : segmentNameProblem(newName, groups.segments, segmentLabel);

  // Ticks of keywords no longer selected do not count.
  const names = new Set(selected.map((p) => p.name));
  const ticked = new Set([...checked].filter((n) => names.has(n)));

  const onCheck = (list: string[], on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      for (const n of list) {
        if (on) next.add(n);
        else next.delete(n);
      }
      return next;
    });
  const move = (to: string, list: Iterable<string>) => {
    segmentation.move(new Set(list), to);
    setChecked(new Set());
  };
  const onDragKeyword = (event: DragEvent, name: string) => {
    // Dragging a ticked keyword carries every ticked one.
    const list = ticked.has(name) ? [...ticked] : [name];
    event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(list));
    event.dataTransfer.effectAllowed = 'move';
  };
  const addSegment = () => {
    if (segmentNameProblem(newName, groups.segments, segmentLabel) !== null) return;
    segmentation.add(newName, ticked);
    setNewName('');
    setChecked(new Set());
  };

  return (
    <Stack gap="md" data-testid="segmentation">
      <Card withBorder padding="sm">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text fw={600}>{t('segments.title')}</Text>
              <Text size="xs" c="dimmed">
                {t('segments.help')}
              </Text>
            </Stack>
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => segmentation.reset()} disabled={!groups.manualSegmentation}>
              {t('segments.reset')}
            </Button>
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap" data-testid="segment-toolbar">
            <Text size="sm" data-testid="segment-ticked">
              {tn('segments.tickedCount', ticked.size, formatNumber(ticked.size, 0))}
            </Text>
            <Select
              size="xs"
              w={200}
              label={t('segments.moveTo')}
              placeholder={t('segments.pickSegment')}
              data={groups.segments.map((s) => ({ value: s.id, label: segmentLabel(s) }))}
              value={target}
              onChange={setTarget}
              allowDeselect={false}
              data-testid="segment-move-target"
            />
            <Button size="xs" disabled={ticked.size === 0 || target === null} onClick={() => target && move(target, ticked)}>
              {t('segments.move')}
            </Button>
            <TextInput
              size="xs"
              w={220}
              label={t('segments.newName')}
              value={newName}
              maxLength={MAX_SEGMENT_NAME}
              onChange={(e) => setNewName(e.currentTarget.value)}
              onKeyDown={(e) => e.key === 'Enter' && addSegment()}
              error={nameError(newProblem)}
              disabled={manualCount >= MAX_MANUAL_SEGMENTS}
            />
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={addSegment} disabled={newName.trim() === '' || newProblem !== null || manualCount >= MAX_MANUAL_SEGMENTS}>
              {ticked.size > 0 ? t('segments.addWithTicked') : t('segments.add')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {groups.segments.map((segment) => (
          <SegmentCard
            key={segment.id}
            segment={segment}
            keywords={bySegment.get(segment.id) ?? []}
            checked={ticked}
            onCheck={onCheck}
            onDropKeywords={(to, list) => move(to, list)}
            onDragKeyword={onDragKeyword}
            suggester={suggester}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
