/**
 * A text with the search's matches marked (docs/product.md#2-activity-log: the search text
 * highlighted in results).
 */
import { Mark } from '@mantine/core';
import { highlightParts } from '../highlight';

export function Highlighted({ text, search }: { text: string; search: string }) {
  return (
    <>
      {highlightParts(text, search).map((part, i) =>
        part.match ? (
          <Mark key={i} color="yellow">
            {part.text}
          </Mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
