/**
 * The tag picker (docs/product.md#2-tables: tags): what the bulk bar's Tag button and a
 * row's tag cell open. It lists the level's tags with a checkbox each — checked when every chosen
 * row carries the tag, mixed when some do; ticking attaches the tag to all of them, unticking
 * detaches it — finds them by name as one types, creates a tag of the typed name in one of the ten
 * colours on the chosen rows, and edits a tag (rename, recolour, delete) in place.
 *
 * Escape closes it wherever the focus is: a tick or a new tag re-renders the list under the
 * focus, and a popover's own Escape only hears keys pressed inside it. The boxes stay
 * focusable while a change is sent (a disabled box drops the focus to the page), and the
 * search field takes the focus back once a tag is created.
 */
import { ActionIcon, Badge, Button, Checkbox, ColorSwatch, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconCheck, IconChevronLeft, IconPencil } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { TAG_NAME_MAX, useAllTags, useChangeTag, type Tag, type TagChange, type TagScope } from '../api/tags';
import { swatchColor, TAG_COLORS, tagStyle } from '../tag-colors';
import { refusalOf } from './QuickEdit';

export interface TagPickerProps {
  /** The tag type of the rows (CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS). */
  type: string;
  scope: TagScope;
  /** The chosen rows' ids. */
  ids: readonly string[];
  /** How many of the chosen rows carry each tag (by tag id), of those whose tags are known. */
  carried: ReadonlyMap<string, number>;
  /** Closes the picker's popover (Escape). */
  onClose: () => void;
}

/** The ten colours as radio swatches under their label. */
function ColorChoice({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={500} id="tag-color-label">
        {t('tags.color')}
      </Text>
      <Group gap={6} role="radiogroup" aria-labelledby="tag-color-label">
        {TAG_COLORS.map((color) => {
          const on = value.toLowerCase() === color.toLowerCase();
          return (
            <ColorSwatch
              key={color}
              component="button"
              type="button"
              role="radio"
              aria-checked={on}
              aria-label={color}
              title={color}
              color={swatchColor(color)}
              size={20}
              onClick={() => onChange(color)}
              style={{ cursor: 'pointer' }}
            >
              {on && <IconCheck size={12} color="white" aria-hidden />}
            </ColorSwatch>
          );
        })}
      </Group>
    </Stack>
  );
}

function TagBadge({ tag }: { tag: Pick<Tag, 'name' | 'color'> }) {
  return (
    <Badge tt="none" variant="light" style={tagStyle(tag.color)} styles={{ root: { background: 'var(--badge-bg)', color: 'var(--badge-color)' } }}>
      {tag.name}
    </Badge>
  );
}

/** Editing one tag: its name and colour, or deleting it. */
function TagEditor({ tag, onBack, run, pending }: { tag: Tag; onBack: () => void; run: (change: TagChange, onDone?: () => void) => void; pending: boolean }) {
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color);
  const [confirm, setConfirm] = useState(false);
  const trimmed = name.trim();
  const changed = trimmed !== tag.name || color !== tag.color;
  return (
    <Stack gap="xs" data-testid="tag-editor">
      <Group gap={4}>
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('tags.back')} onClick={onBack}>
          <IconChevronLeft size={14} />
        </ActionIcon>
        <Text size="sm" fw={600}>
          {t('tags.edit')}
        </Text>
      </Group>
      <TextInput size="xs" label={t('tags.name')} value={name} maxLength={TAG_NAME_MAX} onChange={(e) => setName(e.currentTarget.value)} error={trimmed === '' ? t('tags.nameRequired') : undefined} />
      <ColorChoice value={color} onChange={setColor} />
      <Button size="xs" disabled={!changed || trimmed === ''} loading={pending} onClick={() => run({ kind: 'update', tagId: tag._id, name: trimmed !== tag.name ? trimmed : undefined, color: color !== tag.color ? color : undefined }, onBack)}>
        {t('common.save')}
      </Button>
      {confirm ? (
        <Stack gap={4}>
          <Text size="xs">{t('tags.deleteConfirm')}</Text>
          <Group gap={6} grow>
            <Button size="xs" variant="default" onClick={() => setConfirm(false)}>
              {t('common.cancel')}
            </Button>
            <Button size="xs" color="red" loading={pending} onClick={() => run({ kind: 'delete', tagId: tag._id }, onBack)}>
              {t('tags.delete')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Button size="xs" variant="subtle" color="red" onClick={() => setConfirm(true)}>
          {t('tags.delete')}
        </Button>
      )}
    </Stack>
  );
}

export function TagPicker({ type, scope, ids, carried, onClose }: TagPickerProps) {
  const tags = useAllTags();
  const change = useChangeTag();
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [color, setColor] = useState<string>('Blue');
  const [editing, setEditing] = useState<string | null>(null);
  const own = tags.data?.[type] ?? [];
  const run = (next: TagChange, onDone?: () => void) =>
    change.mutate(next, {
      onSuccess: () => {
        onDone?.();
        showSnackbar(t(`tags.done.${next.kind}`));
      },
      onError: (e) => showSnackbar(refusalOf(e), 'danger'),
    });
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape') onClose();
  });

  const edited = own.find((tag) => tag._id === editing);
  if (edited) return <TagEditor key={edited._id} tag={edited} onBack={() => setEditing(null)} run={run} pending={change.isPending} />;

  const needle = query.trim().toLowerCase();
  const shown = own.filter((tag) => tag.name.toLowerCase().includes(needle));
  const exact = own.some((tag) => tag.name.toLowerCase() === needle);
  return (
    <Stack gap="xs" data-testid="tag-picker">
      <TextInput ref={search} size="xs" label={t('tags.find')} placeholder={t('tags.findPlaceholder')} value={query} maxLength={TAG_NAME_MAX} onChange={(e) => setQuery(e.currentTarget.value)} data-autofocus />
      {own.length === 0 && <Text size="xs" c="dimmed">{t('tags.none')}</Text>}
      {shown.length > 0 && (
        <ScrollArea.Autosize mah={220}>
          <Stack gap={4}>
            {shown.map((tag) => {
              const count = carried.get(tag._id) ?? 0;
              const all = ids.length > 0 && count >= ids.length;
              return (
                <Group key={tag._id} gap={6} wrap="nowrap" justify="space-between">
                  <Checkbox
                    size="xs"
                    checked={all}
                    indeterminate={count > 0 && !all}
                    disabled={ids.length === 0}
                    aria-busy={change.isPending}
                    onChange={() => {
                      if (!change.isPending) run({ kind: all ? 'detach' : 'attach', scope, ids, tagId: tag._id });
                    }}
                    label={<TagBadge tag={tag} />}
                    aria-label={tag.name}
                  />
                  <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`${t('tags.edit')}: ${tag.name}`} onClick={() => setEditing(tag._id)}>
                    <IconPencil size={14} />
                  </ActionIcon>
                </Group>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
      {needle !== '' && !exact && (
        <Stack gap={6} data-testid="tag-create">
          <ColorChoice value={color} onChange={setColor} />
          <Button size="xs" loading={change.isPending} disabled={ids.length === 0} onClick={() => run({ kind: 'create', scope, ids, name: query.trim(), color, type }, () => {
                setQuery('');
                search.current?.focus();
              })}>
            {t('tags.create')} “{query.trim()}”
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** How many of `rows` carry each tag (their `tag` lists). */
export function carriedTags(rows: readonly (Record<string, unknown> | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const list = row?.tag;
    if (!Array.isArray(list)) continue;
    for (const tag of list as unknown[]) {
      if (typeof tag === 'object' && tag !== null && 'id' in tag) {
        const id = String((tag).id);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
  }
  return counts;
}
