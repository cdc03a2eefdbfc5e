/** Keyword lists as the user types them (the suggester's fields, the negative keyword lists). */
export { keywordListText, normalizeKeyword, parseKeywordList } from './keyword-list';
