import { entityIdSchema, idIn, positiveIdIn } from './ids';

describe('entity ids', () => {
  it('keeps an id past 2^53 exact from the JSON text to the row', () => {
    const wire = '{"searchTermId":"772182579262523445","campaignId":"100000001"}';
    const row = JSON.parse(wire) as Record<string, unknown>;
    expect(idIn(row, 'searchTermId')).toBe('772182579262523445');
    expect(entityIdSchema.parse(row.searchTermId)).toBe('772182579262523445');
    // What a number would have made of it.
    expect(String(Number('772182579262523445'))).not.toBe('772182579262523445');
  });

  it('refuses numbers, fractions and words', () => {
    expect(entityIdSchema.safeParse(JSON.parse('772182579262523445')).success).toBe(false);
    expect(entityIdSchema.safeParse('1.5').success).toBe(false);
    expect(entityIdSchema.safeParse('seven').success).toBe(false);
    expect(idIn({ id: 7 }, 'id')).toBeNull();
  });

  it('reads positive ids from addresses', () => {
    expect(positiveIdIn('campaign-id-9007199254740993', 'campaign-id-')).toBe('9007199254740993');
    expect(positiveIdIn('campaign-id-0', 'campaign-id-')).toBeNull();
    expect(positiveIdIn('12x')).toBeNull();
  });
});
