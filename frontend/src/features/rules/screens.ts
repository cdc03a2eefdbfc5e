/** The rules feature's screens, loaded on demand by the route table (one chunk). */
export { RulesScreen } from './components/RulesScreen';
export { RuleEditor } from './components/RuleEditor';
export { RunHistory } from './components/RunHistory';
