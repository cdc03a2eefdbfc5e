import type { ColumnPreset } from './api/column-presets';
import {
  addFilterPreset,
  canSaveColumnPreset,
  canSaveFilterPreset,
  presetColumns,
  presetNameProblem,
  readFilterPresets,
  removeFilterPreset,
  selectedPreset,
  type FilterPreset,
} from './presets';

const preset = (id: string, name: string, isDefault = false): ColumnPreset => ({ _id: id, name, type: 'KEYWORDS', fields: ['keyword', 'taps'], isDefault });
const base = [preset('default-KEYWORDS', 'Default', true), preset('p1', 'Bids')];

describe('column preset rules (spec §5)', () => {
  it('needs a name that is not taken, Default included', () => {
    expect(presetNameProblem('  ', ['Bids'])).toBe('required');
    expect(presetNameProblem('bids', ['Bids'])).toBe('taken');
    expect(presetNameProblem('Default', ['Bids'])).toBe('taken');
    expect(presetNameProblem('x'.repeat(51), [])).toBe('tooLong');
    expect(presetNameProblem('Spend', ['Bids'])).toBeNull();
    // Renaming keeps its own name free.
    expect(presetNameProblem('BIDS', ['Bids'], 'Bids')).toBeNull();
  });

  it('allows ten saved presets besides Default', () => {
    const nine = [base[0]!, ...Array.from({ length: 9 }, (_, i) => preset(`p${i}`, `P${i}`))];
    expect(canSaveColumnPreset(nine)).toBe(true);
    expect(canSaveColumnPreset([...nine, preset('p10', 'P10')])).toBe(false);
  });

  it('falls back to Default when the selected preset is missing', () => {
    expect(selectedPreset(base, 'p1')?.name).toBe('Bids');
    expect(selectedPreset(base, 'gone')?.name).toBe('Default');
    expect(selectedPreset(base, null)?.name).toBe('Default');
  });

  it('puts the name column first', () => {
    expect(presetColumns('KEYWORDS', ['taps', 'keyword', 'localSpend'])).toEqual(['keyword', 'taps', 'localSpend']);
    expect(presetColumns('CAMPAIGNS', ['taps'])).toEqual(['campaignName', 'taps']);
  });
});

describe('filter presets', () => {
  const filters = [{ type: 'name' as const, condition: 'contains' as const, value: 'fit' }];
  const saved: FilterPreset[] = [{ name: 'Fitness', type: 'KEYWORDS', filters }];

  it('adds a preset per type with the name rules and the limit', () => {
    expect(addFilterPreset(saved, { name: ' Brand ', type: 'KEYWORDS', filters })).toEqual([...saved, { name: 'Brand', type: 'KEYWORDS', filters }]);
    expect(addFilterPreset(saved, { name: 'fitness', type: 'KEYWORDS', filters })).toBe('taken');
    expect(addFilterPreset(saved, { name: 'Fitness', type: 'CAMPAIGNS', filters })).not.toBe('taken');
    expect(addFilterPreset(saved, { name: '', type: 'KEYWORDS', filters })).toBe('required');
    expect(addFilterPreset(saved, { name: 'Empty', type: 'KEYWORDS', filters: [] })).toBe('empty');
    const ten = Array.from({ length: 10 }, (_, i): FilterPreset => ({ name: `F${i}`, type: 'KEYWORDS', filters }));
    expect(canSaveFilterPreset(ten, 'KEYWORDS')).toBe(false);
    expect(canSaveFilterPreset(ten, 'CAMPAIGNS')).toBe(true);
    expect(addFilterPreset(ten, { name: 'More', type: 'KEYWORDS', filters })).toBe('limit');
  });

  it('reads the saved option, dropping what it cannot read, and removes by type and name', () => {
    const option = [...saved, { name: 'Bad', type: 'NOPE', filters: [] }, { name: 'Half', type: 'KEYWORDS', filters: [{ type: 'name', value: '' }] }, 'text'];
    expect(readFilterPresets(option)).toEqual(saved);
    expect(readFilterPresets(null)).toEqual([]);
    expect(removeFilterPreset(saved, 'CAMPAIGNS', 'Fitness')).toEqual(saved);
    expect(removeFilterPreset(saved, 'KEYWORDS', 'Fitness')).toEqual([]);
  });
});
