/**
 * Keyword lists as the user types them (docs/product.md#5-keyword-lists): one keyword per line,
 * punctuation and symbols removed, lower-cased, empty lines dropped, duplicates removed. The
 * required and negative keyword fields of step 1 send what this makes of their text; the server
 * parses the same way (docs/api/suggester.md), so what the field counts is what is collected.
 */

/** Letters, digits and marks of any script are kept; every other character is a separator. */
const SYMBOLS = /[^\p{L}\p{N}\p{M}\s]+/gu;

/** One line as a keyword: symbols dropped, spaces collapsed, lower-cased ('' when nothing is left). */
export function normalizeKeyword(line: string): string {
  return line.replace(SYMBOLS, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The keywords of a one-per-line text, in the order typed, each once. */
export function parseKeywordList(text: string): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const keyword = normalizeKeyword(line);
    if (keyword === '' || seen.has(keyword)) continue;
    seen.add(keyword);
    keywords.push(keyword);
  }
  return keywords;
}

/** The text of a field holding `keywords` (one per line). */
export function keywordListText(keywords: readonly string[]): string {
  return keywords.join('\n');
}
