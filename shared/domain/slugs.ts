// Letters NFKD does not decompose, spelled out as WordPress's remove_accents() does.
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

/** Lower case without accents, as WordPress folds text for slugs (`Café Ærø` → `cafe aero`). */
export function foldAccents(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþ]/g, (c) => LIGATURES[c]!);
}

/** WordPress-style slug: accents folded, lower case, runs of anything else turned into one dash. */
export function slugify(input: string): string {
  return foldAccents(input)
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^a-z0-9_\-\s.]+/g, '')
    .replace(/[\s._]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 190);
}

/**
 * The highest suffix among slugs named like `base`: N of the highest `base-N`, 1 when only `base`
 * itself is taken, 0 when neither is. A base's next slug is one above it (gaps are not filled).
 */
export function highestSuffix(base: string, taken: Iterable<string>): number {
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:-(\\d+))?$`);
  let max = 0;
  for (const slug of taken) {
    const m = pattern.exec(slug);
    if (m) max = Math.max(max, m[1] === undefined ? 1 : Number(m[1]));
  }
  return max;
}
