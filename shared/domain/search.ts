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

/** Letters NFKD does not decompose, spelled out as slugs spell them. */
const LIGATURES: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
};

/** The folded words of a text: lower case, accents removed, split on anything but letters and digits. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþ]/g, (c) => LIGATURES[c]!)
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
