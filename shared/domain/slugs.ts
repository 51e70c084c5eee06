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

/** The first free slug: `base`, else `base-N` with N one above the highest taken suffix. */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:-(\\d+))?$`);
  let max = 0;
  let baseTaken = false;
  for (const slug of taken) {
    const m = pattern.exec(slug);
    if (!m) continue;
    if (m[1] === undefined) baseTaken = true;
    else max = Math.max(max, Number(m[1]));
  }
  if (!baseTaken) return base;
  return `${base}-${Math.max(max, 1) + 1}`;
}
