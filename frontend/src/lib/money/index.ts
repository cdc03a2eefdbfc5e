/** Money fields checked in the browser with the server's rules (quick edits, creation, copies, rules). */
export { checkMoney, fill, minimumOf, moneyLabel, moneyProblem, moneyRefusal, moneySchema, optionalMoneySchema, refusalText, refusalWords, type MoneyField, type MoneyOptions, type MoneySign } from './money';
