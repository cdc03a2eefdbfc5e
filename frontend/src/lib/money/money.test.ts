import { ApiError } from '@/lib/api-error';
import { checkMoney, minimumOf, moneySchema, refusalText } from './money';

describe('money fields', () => {
  it("takes Apple's minimums per currency from the sandbox's table", () => {
    // The sandbox's own test (rules.rs) pins the same values.
    expect(minimumOf('cptBid', 'USD')).toBe(0.1);
    expect(minimumOf('cptBid', 'EUR')).toBe(0.1);
    expect(minimumOf('defaultBidAmount', 'JPY')).toBe(15);
    expect(minimumOf('dailyBudget', 'USD')).toBe(1);
    expect(minimumOf('dailyBudget', 'JPY')).toBe(150);
    expect(minimumOf('cptBid', 'GBP')).toBe(0.08);
    expect(minimumOf('cpaGoal', 'USD')).toBeNull();
  });

  it('parses with one schema per field: the exact amount text, or the problem in words', () => {
    expect(moneySchema('cptBid', 'USD').parse('1.5')).toBe('1.50');
    expect(moneySchema('dailyBudget', 'JPY').parse(200)).toBe('200');
    expect(checkMoney('cptBid', 'USD', -1)).toEqual({ problem: 'Bid cannot be negative' });
    expect(checkMoney('cptBid', 'USD', '-0')).toEqual({ problem: 'Bid cannot be negative' });
    expect(checkMoney('cptBid', 'USD', 0)).toEqual({ problem: 'Bid must be more than 0' });
    expect(checkMoney('cpaGoal', 'USD', 0)).toEqual({ problem: 'CPA goal must be more than 0' });
    expect(checkMoney('cpaGoal', 'USD', 0.01)).toEqual({ amount: '0.01' });
    expect(checkMoney('cptBid', 'USD', '')).toEqual({ problem: 'Bid is required' });
    expect(checkMoney('cptBid', 'USD', 'abc')).toEqual({ problem: 'Bid must be a number' });
    expect(checkMoney('cptBid', 'USD', '1.234')).toEqual({ problem: 'Bid has at most 2 decimals in USD' });
    expect(checkMoney('dailyBudget', 'JPY', '150.5')).toEqual({ problem: 'Daily budget must be a whole amount in JPY' });
    expect(checkMoney('dailyBudget', 'USD', '0.99')).toEqual({ problem: 'Daily budget must be at least $1.00' });
  });

  it("says the server's refusals in the user's words", () => {
    const refused = (message: string) => new ApiError(400, 'Invalid', [{ field: 'cptBid', message }]);
    expect(refusalText(refused('bid: amount must be a positive decimal, got "0"'), 'cptBid', 'USD')).toBe('Bid must be more than 0');
    expect(refusalText(refused('bid must be at least 0.10 USD'), 'cptBid', 'USD')).toBe('Bid must be at least $0.10');
    expect(refusalText(refused('bid: keyword is not active'), 'cptBid', 'USD')).toBe('keyword is not active');
    expect(refusalText(refused('Keyword is locked by a rule'), null, 'USD')).toBe('Keyword is locked by a rule');
  });
});
