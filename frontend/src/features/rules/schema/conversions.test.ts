/**
 * Rules on the Conversions and Cohort metrics, with the report catalog as the server writes
 * it, plus a cohort window it may add later (`roasD60`, `revenueD60`): nothing in the rules
 * feature names them, so they are taken as the catalog says.
 */
import { emptyRule, ruleToForm } from '../form-values';
import { ruleSchema, type ConditionForm, type RuleForm } from '.';

jest.mock('@/api/report-catalog.json', () => {
  const actual = jest.requireActual<{ conversionMetrics: object[]; cohortColumns: string[] }>('@/api/report-catalog.json');
  const added = [
    { name: 'revenueD60', display: 'money', group: 'Cohort' },
    { name: 'roasD60', display: 'percent', group: 'Cohort' },
  ];
  return { ...actual, conversionMetrics: [...actual.conversionMetrics, ...added], cohortColumns: [...actual.cohortColumns, ...added.map((m) => m.name)] };
});

const USD = { accountId: 'acc1', orgId: '42', currency: 'USD' };

function form(condition: ConditionForm, overrides: Partial<RuleForm> = {}): RuleForm {
  const base = emptyRule(['1870001']);
  return {
    ...base,
    name: 'On what installs earn',
    conditions: { operator: 'AND', groups: [{ operator: 'AND', conditions: [condition] }] },
    actions: [{ type: 'pause' }],
    ...overrides,
  };
}

const metric = (name: string, value: string): ConditionForm => ({ type: 'metric', metric: name, operator: 'LESS_THAN', value });

function issues(f: RuleForm): Record<string, string> {
  const result = ruleSchema(USD).safeParse(f);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

function conditionOf(f: RuleForm) {
  const result = ruleSchema(USD).safeParse(f);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data.conditions.groups[0]?.conditions[0];
}

const AT = 'conditions.groups.0.conditions.0';

describe('rules on conversions', () => {
  it('sends ROAS and ROAS D7 as fractions of the percent typed, as ttr and the conversion rate', () => {
    expect(conditionOf(form(metric('roas', '150')))).toEqual({ type: 'metric', metric: 'roas', operator: 'LESS_THAN', value: '1.5' });
    expect(conditionOf(form(metric('roasD7', '80'), { window: { type: 'last', days: '14', excludeToday: true } }))).toMatchObject({ metric: 'roasD7', value: '0.8' });
  });

  it('takes money in the rule’s currency and counts as whole numbers', () => {
    expect(conditionOf(form(metric('costPerTrial', '2.5')))).toMatchObject({ value: '2.5' });
    expect(issues(form(metric('costPerTrial', '2.505')))[`${AT}.value`]).toMatch(/2 decimal/);
    expect(conditionOf(form(metric('trials', '3')))).toMatchObject({ value: '3' });
    expect(issues(form(metric('trials', '2.5')))).toEqual({ [`${AT}.value`]: 'Enter a whole number' });
  });

  it('refuses them at search terms, which have no attribution', () => {
    const f = form(metric('roas', '100'), { level: 'SEARCHTERMS', actions: [{ type: 'alert', channels: ['EMAIL'], emails: [] }] });
    expect(issues(f)).toEqual({ [`${AT}.metric`]: 'Not a metric of this level' });
  });

  it('holds a Cohort metric’s window to its installs’ age, with the server’s message on the metric', () => {
    const d7 = metric('roasD7', '80');
    expect(issues(form(d7))).toEqual({ [`${AT}.metric`]: 'ROAS D7 is judged on installs at least 7 days old: choose a window that starts 8 or more days ago' });
    // Last 8 days without today starts 8 days ago; with today, 7.
    expect(issues(form(d7, { window: { type: 'last', days: '8', excludeToday: true } }))).toEqual({});
    expect(Object.keys(issues(form(d7, { window: { type: 'last', days: '8', excludeToday: false } })))).toEqual([`${AT}.metric`]);
    expect(issues(form(d7, { window: { type: 'between', fromDaysAgo: '8', toDaysAgo: '8' } }))).toEqual({});
    expect(issues(form(metric('revenueD30', '10'), { window: { type: 'between', fromDaysAgo: '30', toDaysAgo: '1' } }))).toEqual({
      [`${AT}.metric`]: 'Revenue D30 is judged on installs at least 30 days old: choose a window that starts 31 or more days ago',
    });
    // D0: installs of yesterday have had their day.
    expect(issues(form(metric('revenueD0', '1'), { window: { type: 'last', days: '1', excludeToday: true } }))).toEqual({});
  });

  it('holds a window the catalog adds later to its age too', () => {
    expect(issues(form(metric('roasD60', '50'), { window: { type: 'last', days: '30', excludeToday: true } }))).toEqual({
      [`${AT}.metric`]: 'ROAS D60 is judged on installs at least 60 days old: choose a window that starts 61 or more days ago',
    });
    expect(conditionOf(form(metric('roasD60', '50'), { window: { type: 'last', days: '61', excludeToday: true } }))).toMatchObject({ value: '0.5' });
  });

  it('holds a comparison with a Cohort metric on either side, on each field', () => {
    const both: ConditionForm = { type: 'compare', metric: 'roasD7', operator: 'LESS_THAN', other: 'roasD3', coefficient: '1' };
    expect(Object.keys(issues(form(both, { window: { type: 'last', days: '3', excludeToday: true } })))).toEqual([`${AT}.metric`, `${AT}.other`]);
  });

  it('holds a comparison with a Cohort metric on the other side too, on `other`', () => {
    const compare: ConditionForm = { type: 'compare', metric: 'roas', operator: 'LESS_THAN', other: 'roasD3', coefficient: '1' };
    expect(issues(form(compare, { window: { type: 'last', days: '3', excludeToday: true } }))).toEqual({ [`${AT}.other`]: 'ROAS D3 is judged on installs at least 3 days old: choose a window that starts 4 or more days ago' });
    expect(issues(form(compare, { window: { type: 'last', days: '4', excludeToday: true } }))).toEqual({});
  });

  it('takes tracked installs, trials and purchases as minimum data, not revenue, and not at search terms', () => {
    const guard = (m: string, level: RuleForm['level'] = 'KEYWORDS') =>
      issues(form(metric('taps', '1'), { level, actions: [{ type: 'alert', channels: ['EMAIL'], emails: [] }], guardrails: { ...emptyRule().guardrails, minData: [{ metric: m, value: '5' }] } }));
    expect(guard('trackedInstalls')).toEqual({});
    expect(guard('totalRevenue')).toEqual({ 'guardrails.minData.0.metric': 'Choose a counter (impressions, taps, installs…)' });
    expect(guard('trials', 'SEARCHTERMS')).toEqual({ 'guardrails.minData.0.metric': 'Choose a counter (impressions, taps, installs…)' });
  });

  it('aims a bid at a ROAS typed in percent, sent as a fraction, held to the cohort’s age', () => {
    const mature = { type: 'between', fromDaysAgo: '21', toDaysAgo: '8' } as const;
    const toRoas = (amount: string, window: RuleForm['window'] = mature) =>
      form(metric('taps', '10'), { level: 'KEYWORDS', window, actions: [{ type: 'bidToTarget', target: 'ROAS_D7', amount, maxStepPercent: '20' }] });
    const result = ruleSchema(USD).safeParse(toRoas('120'));
    if (!result.success) throw new Error(JSON.stringify(result.error.issues));
    expect(result.data.actions[0]).toEqual({ type: 'bidToTarget', target: 'ROAS_D7', amount: '1.2', maxStepPercent: '20' });
    expect(issues(toRoas('', mature))).toEqual({ 'actions.0.amount': 'Please complete this field to continue' });
    expect(issues(toRoas('120', { type: 'last', days: '7', excludeToday: true }))).toEqual({
      'actions.0.target': 'ROAS D7 is judged on installs at least 7 days old: choose a window that starts 8 or more days ago',
    });
    // A cost per trial in the currency, required; read back as typed.
    const trial = form(metric('taps', '10'), { level: 'KEYWORDS', actions: [{ type: 'bidToTarget', target: 'COST_PER_TRIAL', amount: '', maxStepPercent: '20' }] });
    expect(Object.keys(issues(trial))).toEqual(['actions.0.amount']);
    // A stored ROAS target comes back to the form in percent.
    const stored = { ...result.data, id: 'r1', currency: 'USD', createdBy: null, createdAt: 1, updatedAt: 1, lastRun: null, campaigns: [] };
    expect(ruleToForm(stored as never).actions[0]).toMatchObject({ target: 'ROAS_D7', amount: '120' });
  });
});
