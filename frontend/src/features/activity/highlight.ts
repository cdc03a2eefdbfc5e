/**
 * The search text highlighted in the results (docs/product.md#2-activity-log): a text split
 * into the parts that match the search (case-insensitively, every occurrence, the search trimmed as
 * it is sent) and the parts between them.
 */

export interface TextPart {
  text: string;
  match: boolean;
}

export function highlightParts(text: string, search: string): TextPart[] {
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '' || text === '') return text === '' ? [] : [{ text, match: false }];
  const haystack = text.toLocaleLowerCase();
  // Lower-casing can change a text's length (a dotted İ): then match nothing rather than misplace.
  if (haystack.length !== text.length) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}
