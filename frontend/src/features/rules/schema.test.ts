import { emptyRule, newAction, newCondition, ruleToForm } from './form-values';
import { answeredRuleSchema, fractionToPercent, percentToFraction, ruleSchema, shiftDecimal, type RuleBody, type RuleForm, type Rule } from './schema';

const USD = { accountId: 'acc1', orgId: '4500123', currency: 'USD' };

/** The contract's sample rule (docs/api/rules.md "A rule") as the form holds it. */
function sampleForm(): RuleForm {
  return {
    name: 'Pause keywords that spend without installs',
    enabled: true,
    level: 'KEYWORDS',
    campaignIds: ['1870001', '1870002'],
    conditions: {
      operator: 'AND',
      groups: [
        {
          operator: 'AND',
          conditions: [
            { type: 'metric', metric: 'localSpend', operator: 'GREATER_THAN', value: '20' },
            { type: 'metric', metric: 'installs', operator: 'EQUALS', value: '0' },
          ],
        },
        {
          operator: 'OR',
          conditions: [
            { type: 'compare', metric: 'avgCPA', operator: 'GREATER_THAN', other: 'cpaGoal', coefficient: '1.5' },
            { type: 'status', values: ['ACTIVE'] },
          ],
        },
      ],
    },
    window: { type: 'last', days: '7', excludeToday: true },
    frequency: { type: 'daily', hour: 6 },
    actions: [{ type: 'pause' }, { type: 'alert', channels: ['EMAIL', 'SLACK'], emails: [] }],
    guardrails: { minBid: '0.1', maxBid: '5', minBudget: '', maxBudget: '', maxChangePercent: '50', maxEntities: '500', minData: [{ metric: 'taps', value: '10' }] },
  };
}

/** The body of the contract's sample (without the server's own fields). */
const SAMPLE_BODY: RuleBody = {
  version: 1,
  name: 'Pause keywords that spend without installs',
  enabled: true,
  accountId: 'acc1',
  orgId: '4500123',
  level: 'KEYWORDS',
  campaignIds: ['1870001', '1870002'],
  conditions: {
    operator: 'AND',
    groups: [
      {
        operator: 'AND',
        conditions: [
          { type: 'metric', metric: 'localSpend', operator: 'GREATER_THAN', value: '20' },
          { type: 'metric', metric: 'installs', operator: 'EQUALS', value: '0' },
        ],
      },
      {
        operator: 'OR',
        conditions: [
          { type: 'compare', metric: 'avgCPA', operator: 'GREATER_THAN', other: 'cpaGoal', coefficient: '1.5' },
          { type: 'status', values: ['ACTIVE'] },
        ],
      },
    ],
  },
  window: { type: 'last', days: 7, excludeToday: true },
  frequency: { type: 'daily', hour: 6 },
  actions: [{ type: 'pause' }, { type: 'alert', channels: ['EMAIL', 'SLACK'], emails: [] }],
  guardrails: { minBid: '0.10', maxBid: '5.00', minBudget: null, maxBudget: null, maxChangePercent: '50', maxEntities: 500, minData: [{ metric: 'taps', value: '10' }] },
};

function parse(form: RuleForm, scope = USD) {
  return ruleSchema(scope).safeParse(form);
}

/** The issues of a form that must fail, as `path: message`. */
function issuesOf(form: RuleForm, scope = USD): Record<string, string> {
  const result = parse(form, scope);
  if (result.success) throw new Error('expected the form to fail');
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

/** The sample with `change` applied to a copy. */
function sampleWith(change: (form: RuleForm) => void): RuleForm {
  const form = sampleForm();
  change(form);
  return form;
}

describe('ruleSchema: a valid rule', () => {
  it("turns the contract's sample into its exact body", () => {
    const result = parse(sampleForm());
    expect(result.success).toBe(true);
    expect(result.data).toEqual(SAMPLE_BODY);
  });

  it('sends ratios as fractions of the percentages typed', () => {
    const form = sampleWith((f) => {
      f.conditions.groups[0]!.conditions = [{ type: 'metric', metric: 'ttr', operator: 'LESS_THAN', value: '5' }, { type: 'metric', metric: 'conversionRate', operator: 'GREATER_THAN_OR_EQUAL', value: '12.5' }];
    });
    const body = parse(form).data!;
    expect(body.conditions.groups[0]!.conditions).toEqual([
      { type: 'metric', metric: 'ttr', operator: 'LESS_THAN', value: '0.05' },
      { type: 'metric', metric: 'conversionRate', operator: 'GREATER_THAN_OR_EQUAL', value: '0.125' },
    ]);
  });

  it('keeps the sign of a change by an amount, floored to nothing: money with the currency digits', () => {
    const form = sampleWith((f) => {
      f.actions = [{ type: 'changeBid', by: 'AMOUNT', value: '-0.1' }];
    });
    expect(parse(form).data!.actions).toEqual([{ type: 'changeBid', by: 'AMOUNT', value: '-0.10' }]);
  });

  it('takes a whole-unit currency, a between window, a weekly frequency and search-term actions', () => {
    const form = sampleWith((f) => {
      f.level = 'SEARCHTERMS';
      f.conditions.groups = [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'installs', operator: 'GREATER_THAN_OR_EQUAL', value: '3' }, { type: 'matchType', values: ['BROAD'] }] }];
      f.window = { type: 'between', fromDaysAgo: '14', toDaysAgo: '7' };
      f.frequency = { type: 'weekly', weekday: 'FRIDAY', hour: 23 };
      f.actions = [
        { type: 'addKeyword', campaignId: '1870002', adGroupId: '2870001', matchType: 'EXACT', bid: '120' },
        { type: 'addNegative', where: 'AD_GROUP', matchType: 'EXACT' },
      ];
      f.guardrails = emptyRule().guardrails;
    });
    const body = parse(form, { ...USD, currency: 'JPY' }).data!;
    expect(body.window).toEqual({ type: 'between', fromDaysAgo: 14, toDaysAgo: 7 });
    expect(body.frequency).toEqual({ type: 'weekly', weekday: 'FRIDAY', hour: 23 });
    expect(body.actions).toEqual([
      { type: 'addKeyword', campaignId: '1870002', adGroupId: '2870001', matchType: 'EXACT', bid: '120' },
      { type: 'addNegative', where: 'AD_GROUP', matchType: 'EXACT' },
    ]);
    expect(body.guardrails).toEqual({ minBid: null, maxBid: null, minBudget: null, maxBudget: null, maxChangePercent: null, maxEntities: null, minData: [] });
  });

  it('sends bidToTarget without an amount as null and its default step', () => {
    const form = sampleWith((f) => {
      f.actions = [{ ...newAction('bidToTarget', []) }];
    });
    expect(parse(form).data!.actions).toEqual([{ type: 'bidToTarget', target: 'CPA', amount: null, maxStepPercent: '20' }]);
  });

  it('reads a stored rule back into the same form (fractions as percentages)', () => {
    // As the server answers it: read with the document's schema.
    const stored: Rule = answeredRuleSchema.parse({
      ...SAMPLE_BODY,
      id: '01J',
      currency: 'USD',
      conditions: { operator: 'OR', groups: [{ operator: 'AND', conditions: [{ type: 'metric', metric: 'ttr', operator: 'LESS_THAN', value: '0.05' }] }] },
      guardrails: { ...SAMPLE_BODY.guardrails },
      lastRun: null,
    });
    const form = ruleToForm(stored);
    expect(form.conditions.groups[0]!.conditions[0]).toEqual({ type: 'metric', metric: 'ttr', operator: 'LESS_THAN', value: '5' });
    expect(parse(form).data).toEqual({ ...SAMPLE_BODY, conditions: stored.conditions });
  });
});

describe('ruleSchema: each invalid case at the server path', () => {
  it.each<[string, (f: RuleForm) => void, string, string]>([
    ['an empty name', (f) => void (f.name = '  '), 'name', 'Enter a rule name'],
    ['a long name', (f) => void (f.name = 'x'.repeat(101)), 'name', 'At most 100 characters'],
    ['a campaign id that is no id', (f) => void (f.campaignIds = ['1870001', '1870002', 'abc']), 'campaignIds.2', 'Not a campaign of this campaign group'],
    ['no groups', (f) => void (f.conditions.groups = []), 'conditions.groups', 'Add at least one group'],
    ['eleven groups', (f) => void (f.conditions.groups = Array.from({ length: 11 }, () => ({ operator: 'AND', conditions: [newCondition('metric', 'KEYWORDS')] }))), 'conditions.groups', 'At most 10 groups'],
    ['an empty group', (f) => void (f.conditions.groups[1]!.conditions = []), 'conditions.groups.1.conditions', 'Add at least one condition'],
    ['21 conditions', (f) => void (f.conditions.groups[0]!.conditions = Array.from({ length: 21 }, () => ({ type: 'metric', metric: 'taps', operator: 'GREATER_THAN', value: '1' }))), 'conditions.groups.0.conditions', 'At most 20 conditions in a group'],
    ['a value that is no number', (f) => void ((f.conditions.groups[1]!.conditions[0] = { type: 'metric', metric: 'taps', operator: 'LESS_THAN', value: 'ten' })), 'conditions.groups.1.conditions.0.value', 'Enter a number'],
    ['an empty value', (f) => void ((f.conditions.groups[0]!.conditions[0] as { value: string }).value = ''), 'conditions.groups.0.conditions.0.value', 'Please complete this field to continue'],
    ['a negative value', (f) => void ((f.conditions.groups[0]!.conditions[0] as { value: string }).value = '-1'), 'conditions.groups.0.conditions.0.value', 'At least 0'],
    ['money with too many decimals', (f) => void ((f.conditions.groups[0]!.conditions[0] as { value: string }).value = '20.005'), 'conditions.groups.0.conditions.0.value', 'Value has at most 2 decimals in USD'],
    ['popularity at ad groups', (f) => {
      f.level = 'ADGROUPS';
      f.conditions.groups[1]!.conditions = [{ type: 'metric', metric: 'popularity', operator: 'GREATER_THAN', value: '30' }];
    }, 'conditions.groups.1.conditions.0.metric', 'Not a metric of this level'],
    ['a compare with a coefficient of 0', (f) => void ((f.conditions.groups[1]!.conditions[0] as { coefficient: string }).coefficient = '0'), 'conditions.groups.1.conditions.0.coefficient', 'Enter a number above 0'],
    ['a bid compared at campaigns', (f) => {
      f.level = 'CAMPAIGNS';
      f.actions = [{ type: 'pause' }];
      f.conditions.groups[1]!.conditions = [{ type: 'compare', metric: 'avgCPT', operator: 'GREATER_THAN', other: 'bid', coefficient: '1' }];
    }, 'conditions.groups.1.conditions.0.other', 'Not available at this level'],
    ['a keyword status at ad groups', (f) => {
      f.level = 'ADGROUPS';
      f.conditions.groups[1]!.conditions[1] = { type: 'status', values: ['ACTIVE'] };
    }, 'conditions.groups.1.conditions.1.values', 'Not a value of this level'],
    ['a status at search terms', (f) => {
      f.level = 'SEARCHTERMS';
      f.actions = [{ type: 'alert', channels: ['EMAIL'], emails: [] }];
    }, 'conditions.groups.1.conditions.1.type', 'Not available at this level'],
    ['a match type at campaigns', (f) => {
      f.level = 'CAMPAIGNS';
      f.actions = [{ type: 'pause' }];
      f.conditions.groups[1]!.conditions = [{ type: 'matchType', values: ['EXACT'] }];
    }, 'conditions.groups.1.conditions.0.type', 'Not available at this level'],
    ['an empty status', (f) => void (f.conditions.groups[1]!.conditions[1] = { type: 'status', values: [] }), 'conditions.groups.1.conditions.1.values', 'Choose at least one'],
    ['a name condition without text', (f) => void (f.conditions.groups[1]!.conditions[1] = { type: 'name', operator: 'CONTAINS', value: ' ' }), 'conditions.groups.1.conditions.1.value', 'Please complete this field to continue'],
    ['a tag condition without tags', (f) => void (f.conditions.groups[1]!.conditions[1] = { type: 'tag', values: [] }), 'conditions.groups.1.conditions.1.values', 'Choose at least one'],
    ['a window of 0 days', (f) => void (f.window = { type: 'last', days: '0', excludeToday: true }), 'window.days', 'From 1 to 365'],
    ['a window of 366 days', (f) => void (f.window = { type: 'last', days: '366', excludeToday: false }), 'window.days', 'From 1 to 365'],
    ['a window of 1.5 days', (f) => void (f.window = { type: 'last', days: '1.5', excludeToday: false }), 'window.days', 'Enter a whole number'],
    ['a between window the wrong way round', (f) => void (f.window = { type: 'between', fromDaysAgo: '3', toDaysAgo: '7' }), 'window.toDaysAgo', 'Must not be more days ago than From'],
    ['a between window ending today', (f) => void (f.window = { type: 'between', fromDaysAgo: '3', toDaysAgo: '0' }), 'window.toDaysAgo', 'From 1 to 365'],
    ['hour 24', (f) => void (f.frequency = { type: 'daily', hour: 24 }), 'frequency.hour', 'From 0 to 23'],
    ['no actions', (f) => void (f.actions = []), 'actions', 'Add at least one action'],
    ['six actions', (f) => {
      f.level = 'KEYWORDS';
      f.actions = [newAction('pause', []), newAction('enable', []), { type: 'setBid', amount: '1' }, { type: 'changeBid', by: 'PERCENT', value: '10' }, newAction('bidToTarget', []), newAction('alert', [])];
    }, 'actions', 'At most 5 actions'],
    ['two actions of a type', (f) => void (f.actions = [{ type: 'pause' }, { type: 'pause' }]), 'actions.1.type', 'Only one action of each type'],
    ['a budget action at keywords', (f) => void (f.actions = [{ type: 'setBudget', amount: '10' }]), 'actions.0.type', 'Not available at this level'],
    ['a bid of 0', (f) => void (f.actions = [{ type: 'setBid', amount: '0' }]), 'actions.0.amount', 'Bid must be more than 0'],
    ['a bid with three decimals', (f) => void (f.actions = [{ type: 'setBid', amount: '1.234' }]), 'actions.0.amount', 'Bid has at most 2 decimals in USD'],
    ['a negative bid', (f) => void (f.actions = [{ type: 'setBid', amount: '-1' }]), 'actions.0.amount', 'Bid cannot be negative'],
    ['a change of 0', (f) => void (f.actions = [{ type: 'changeBid', by: 'PERCENT', value: '0' }]), 'actions.0.value', 'Enter a change other than 0'],
    ['a change by an amount of 0', (f) => void (f.actions = [{ type: 'changeBid', by: 'AMOUNT', value: '0.00' }]), 'actions.0.value', 'Change cannot be 0'],
    ['a step of 101 %', (f) => void (f.actions = [{ type: 'bidToTarget', target: 'CPT', amount: '1', maxStepPercent: '101' }]), 'actions.0.maxStepPercent', 'At most 100'],
    ['a keyword added outside the rule', (f) => {
      f.level = 'SEARCHTERMS';
      f.conditions.groups[1]!.conditions = [{ type: 'tag', values: ['brand'] }];
      f.actions = [{ type: 'addKeyword', campaignId: '999', adGroupId: '1', matchType: 'EXACT', bid: '' }];
    }, 'actions.0.campaignId', 'Choose one of the rule’s campaigns'],
    ['an alert without a channel', (f) => void (f.actions = [{ type: 'alert', channels: [], emails: [] }]), 'actions.0.channels', 'Choose at least one'],
    ['an alert to a bad address', (f) => void (f.actions = [{ type: 'alert', channels: ['EMAIL'], emails: ['ann@'] }]), 'actions.0.emails', 'Enter a valid email address'],
    ['a minimum bid above the maximum', (f) => void (f.guardrails.minBid = '6'), 'guardrails.maxBid', 'Must not be below the minimum'],
    ['a minimum budget above the maximum', (f) => {
      f.guardrails.minBudget = '100';
      f.guardrails.maxBudget = '50';
    }, 'guardrails.maxBudget', 'Must not be below the minimum'],
    ['a negative guardrail', (f) => void (f.guardrails.minBid = '-0.10'), 'guardrails.minBid', 'Minimum bid cannot be negative'],
    ['a change limit of 0 %', (f) => void (f.guardrails.maxChangePercent = '0'), 'guardrails.maxChangePercent', 'At least 1'],
    ['a change limit of 1001 %', (f) => void (f.guardrails.maxChangePercent = '1001'), 'guardrails.maxChangePercent', 'At most 1000'],
    ['10,001 entities', (f) => void (f.guardrails.maxEntities = '10001'), 'guardrails.maxEntities', 'From 1 to 10000'],
    ['minimum data on a ratio', (f) => void (f.guardrails.minData = [{ metric: 'ttr', value: '1' }]), 'guardrails.minData.0.metric', 'Choose a counter (impressions, taps, installs…)'],
  ])('%s', (_, change, path, message) => {
    expect(issuesOf(sampleWith(change))[path]).toBe(message);
  });

  it('refuses 0 decimals in a whole-unit currency', () => {
    const form = sampleWith((f) => void (f.actions = [{ type: 'setBid', amount: '10.5' }]));
    expect(issuesOf(form, { ...USD, currency: 'JPY' })['actions.0.amount']).toBe('Bid must be a whole amount in JPY');
  });
});

describe('decimal shifts', () => {
  it.each([
    ['5', -2, '0.05'],
    ['12.5', -2, '0.125'],
    ['100', -2, '1'],
    ['0.5', -2, '0.005'],
    ['-3', -2, '-0.03'],
    ['0.05', 2, '5'],
    ['0.125', 2, '12.5'],
    ['1', 2, '100'],
    ['0', 2, '0'],
  ])('%s shifted by %i is %s', (text, shift, expected) => {
    expect(shiftDecimal(text, shift)).toBe(expected);
  });

  it('round-trips a percentage', () => {
    expect(fractionToPercent(percentToFraction('7.25'))).toBe('7.25');
  });
});
