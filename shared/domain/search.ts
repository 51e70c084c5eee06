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

/** Longest word the search index stores; longer words are stored cut, and the records decide. */
export const MAX_INDEXED_WORD = 64;

/** A word cut at MAX_INDEXED_WORD characters (code points, so that no surrogate pair is split). */
const cut = (w: string) =>
  w.length > MAX_INDEXED_WORD ? Array.from(w).slice(0, MAX_INDEXED_WORD).join('') : w;

/** The index partition of a word: its first two characters (code points). */
export const wordHead = (word: string) => Array.from(word).slice(0, 2).join('');

/**
 * The words of texts as the search index stores them: distinct, at least two characters, cut at
 * MAX_INDEXED_WORD, and without a word that starts another one of the same texts (a query word that
 * starts it starts the longer one too). A query word of two or more characters starts a word of the
 * texts exactly when it starts (or, past the cut, extends) one of these.
 */
export function indexWords(texts: string[]): string[] {
  const words = [
    ...new Set(
      texts
        .flatMap(searchWords)
        .filter((w) => Array.from(w).length >= 2)
        .map(cut),
    ),
  ].sort();
  // Sorted, every word that another one starts with comes right before the block of those words.
  return words.filter((w, i) => !words[i + 1]?.startsWith(w));
}

/** The query words the index can look up (two or more characters), cut as the index cuts them. */
export function indexedQueryWords(query: string): string[] {
  return [
    ...new Set(
      searchWords(query)
        .filter((w) => Array.from(w).length >= 2)
        .map(cut),
    ),
  ];
}
