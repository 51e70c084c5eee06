import { foldAccents } from './slugs';

/**
 * Event search (decisions §8): every word of the query must match the start of a word of the title,
 * excerpt or description, case- and accent-insensitively. Words are runs of letters and digits.
 */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** The text of stored (already sanitized) HTML: tags become spaces, common entities are decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m);
}

/** The folded words of a text: lower case, accents removed, split on anything but letters and digits. */
export function searchWords(text: string): string[] {
  return foldAccents(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whether every word of `query` starts a word of one of `texts`. An empty query matches everything. */
export function matchesWordStarts(query: string, texts: string[]): boolean {
  const wanted = searchWords(query);
  if (wanted.length === 0) return true;
  const have = texts.flatMap(searchWords);
  return wanted.every((w) => have.some((h) => h.startsWith(w)));
}
