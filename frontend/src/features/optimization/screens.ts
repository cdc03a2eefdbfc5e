/** The optimisation drill-down's screens, loaded on demand by the route table (one chunk). */
export { DrillScreen } from './components/DrillScreen';
export { AllAccountsScreen, OrgsScreen } from './components/TotalsScreen';
