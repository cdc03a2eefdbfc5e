/** The rule schema's words: its version, levels, logic, operators and limits (docs/api/rules.md "A rule"). */

export const RULE_VERSION = 1;

export const LEVELS = ['CAMPAIGNS', 'ADGROUPS', 'KEYWORDS', 'SEARCHTERMS'] as const;
export type RuleLevel = (typeof LEVELS)[number];

export const LOGIC = ['AND', 'OR'] as const;
export type Logic = (typeof LOGIC)[number];

export const OPERATORS = ['GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL', 'EQUALS', 'NOT_EQUALS'] as const;
export type Operator = (typeof OPERATORS)[number];
export const OPERATOR_SYMBOL: Record<Operator, string> = {
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL: '≥',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL: '≤',
  EQUALS: '=',
  NOT_EQUALS: '≠',
};

export const NAME_OPERATORS = ['CONTAINS', 'DOES_NOT_CONTAIN', 'EQUALS'] as const;
export const MATCH_TYPES = ['EXACT', 'BROAD'] as const;
export const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export const CHANNELS = ['EMAIL', 'SLACK'] as const;

export const MAX_GROUPS = 10;
export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 5;
export const NAME_MAX = 100;
export const MAX_DAYS = 365;
export const DEFAULT_STEP_PERCENT = '20';
export const DEFAULT_MAX_ENTITIES = 1000;
