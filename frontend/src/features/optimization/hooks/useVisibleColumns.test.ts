import type { ColumnPreset } from '../api/column-presets';
import { shownColumns } from './useVisibleColumns';

const preset = (isDefault: boolean) => ({ _id: isDefault ? 'default' : 'p1', name: isDefault ? 'Default' : 'Mine', type: 'KEYWORDS', fields: [], isDefault }) as unknown as ColumnPreset;

describe('shownColumns', () => {
  const fields = ['keyword', 'keywordStatus', 'qsStatus', 'auctionInsights', 'cptBid'];

  it("leaves the plan's locked columns out of Default", () => {
    expect(shownColumns(fields, preset(true), ['qsStatus', 'auctionInsights'])).toEqual(['keyword', 'keywordStatus', 'cptBid']);
    expect(shownColumns(fields, undefined, ['qsStatus'])).toEqual(['keyword', 'keywordStatus', 'auctionInsights', 'cptBid']);
  });

  it('keeps them in a preset the user chose them for, and when nothing is locked', () => {
    expect(shownColumns(fields, preset(false), ['qsStatus'])).toEqual(fields);
    expect(shownColumns(fields, preset(true), [])).toEqual(fields);
    expect(shownColumns(fields, preset(true), undefined)).toEqual(fields);
  });
});
