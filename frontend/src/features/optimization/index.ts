/**
 * The public face of the optimisation feature (the drill-down tables). Its screens are in
 * `screens.ts`, loaded lazily by the route table.
 */
export { adGroupPath, campaignPath, campaignsPath, type Tab } from './paths';
/** Money fields checked in the browser with the server's rules (quick edits, creation, copies). */
export { checkMoney, minimumOf, moneyProblem, moneySchema, optionalMoneySchema, type MoneyOptions, type MoneySign } from './money';
