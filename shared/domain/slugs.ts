/**
 * Slugs as WordPress makes them (decisions §9): sanitize_title() in its 'save' context, that is
 * remove_accents() and then sanitize_title_with_dashes(). Letters outside ASCII are kept as lower-case
 * percent-encoded UTF-8 octets, so `音楽` is `%e9%9f%b3%e6%a5%bd` and distinct names keep distinct slugs.
 */

/** The longest slug, in characters of its encoded form (an octet `%xx` counts three). */
export const SLUG_MAX = 200;

// Letters remove_accents() maps that have no canonical decomposition; the others it maps (Latin-1,
// Latin Extended-A, Ș Ț, Ơ Ư, Vietnamese, Pinyin) are their decomposition without the marks.
const LETTERS: Record<string, string> = {
  Æ: 'AE',
  æ: 'ae',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Þ: 'TH',
  þ: 'th',
  ß: 's',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ĸ: 'k',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: 'n',
  Ŋ: 'N',
  ŋ: 'n',
  Œ: 'OE',
  œ: 'oe',
  Ŧ: 'T',
  ŧ: 't',
  ſ: 's',
  ª: 'a',
  º: 'o',
  ɑ: 'a',
  '€': 'E',
  '£': '',
};
const ACCENTED =
  /[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f\u01a0\u01a1\u01af\u01b0\u01cd-\u01dc\u0218-\u021b\u1ea0-\u1ef9ªºɑ€£]/gu;

/** WordPress's remove_accents() for the site's default locale (`ß` → `s`, `Æ` → `AE`). */
export function removeAccents(input: string): string {
  return input.replace(ACCENTED, (c) => LETTERS[c] ?? c.normalize('NFD').replace(/\p{M}/gu, ''));
}

// Letters NFKD does not decompose, for search (which folds more than slugs do).
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

/** Lower case without accents, for search (`Café Ærø` → `cafe aero`). */
export function foldAccents(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþ]/g, (c) => LIGATURES[c]!);
}

// A character as the text may already hold it: the `%xx` octets of one UTF-8 character, a lone `%xx`,
// or one character.
const SENT_CHARACTER =
  /%[c-dC-D][0-9a-fA-F]%[89abAB][0-9a-fA-F]|%[eE][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){2}|%[fF][0-7](?:%[89abAB][0-9a-fA-F]){3}|%[0-9a-fA-F]{2}|[^]/gu;

const hex = (b: number) => `%${b.toString(16).padStart(2, '0')}`;

/**
 * utf8_uri_encode(): every non-ASCII character as lower-case `%xx` octets of its UTF-8. With `max`,
 * stops before the character (or the `%xx` octets already in the text) that would pass `max`
 * characters, so neither an octet nor a character is split.
 */
function encodeOctets(input: string, max = Infinity): string {
  const utf8 = new TextEncoder();
  let out = '';
  for (const part of input.match(SENT_CHARACTER) ?? []) {
    const piece =
      part.startsWith('%') || part.charCodeAt(0) < 0x80 ? part : [...utf8.encode(part)].map(hex).join('');
    if (out.length + piece.length > max) break;
    out += piece;
  }
  return out;
}

// sanitize_title_with_dashes()' 'save' context, on the encoded text: nbsp, en and em dashes and the
// spaces that have a width become `-`; soft hyphens, inverted marks, angle and curly quotes, bullet,
// ©, ®, °, …, ™, lone accents, zero-width and direction marks and the BOM are dropped; `×` is `x`.
const TO_DASH = [
  '%c2%a0',
  '%e2%80%93',
  '%e2%80%94',
  '&nbsp;',
  '&#160;',
  '&ndash;',
  '&#8211;',
  '&mdash;',
  '&#8212;',
  '/',
];
const DROPPED = [
  '%c2%ad',
  '%c2%a1',
  '%c2%bf',
  '%c2%ab',
  '%c2%bb',
  '%e2%80%b9',
  '%e2%80%ba',
  '%e2%80%98',
  '%e2%80%99',
  '%e2%80%9c',
  '%e2%80%9d',
  '%e2%80%9a',
  '%e2%80%9b',
  '%e2%80%9e',
  '%e2%80%9f',
  '%e2%80%a2',
  '%c2%a9',
  '%c2%ae',
  '%c2%b0',
  '%e2%80%a6',
  '%e2%84%a2',
  '%c2%b4',
  '%cb%8a',
  '%cc%81',
  '%cd%81',
  '%cc%80',
  '%cc%84',
  '%cc%8c',
  '%e2%80%8b',
  '%e2%80%8c',
  '%e2%80%8d',
  '%e2%80%8e',
  '%e2%80%8f',
  '%e2%80%aa',
  '%e2%80%ab',
  '%e2%80%ac',
  '%e2%80%ad',
  '%e2%80%ae',
  '%ef%bb%bf',
];
const WIDE_SPACES = [
  ...Array.from({ length: 11 }, (_, i) => `%e2%80%8${i.toString(16)}`),
  '%e2%80%a8',
  '%e2%80%a9',
  '%e2%80%af',
];
const replaceAll = (text: string, from: string[], to: string) =>
  from.reduce((t, f) => t.split(f).join(to), text);

/** PHP's strip_tags(), as far as slugs see it: a `<` not followed by a space opens a tag to its `>`. */
const stripTags = (input: string) => input.replace(/<(?![\s])[^>]*(?:>|$)/g, '');

/**
 * sanitize_title($text): the slug WordPress saves for a title or a sent slug (`Концерт Juniper` →
 * `%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-juniper`, `early_bird/special` → `early_bird-special`).
 * Empty when nothing is left (`!!!`); the caller then falls back (the title, or the record's ID).
 */
export function slugify(input: string): string {
  let s = stripTags(removeAccents(input.normalize('NFC')));
  // Keep `%xx` octets a client sent (an encoded slug), drop every other `%`.
  s = s.replace(/%([0-9a-fA-F]{2})/g, '---$1---').replace(/%/g, '');
  s = s.replace(/---([0-9a-fA-F]{2})---/g, '%$1');
  // mb_strtolower one character at a time (no context rules such as a final sigma), then the cut.
  s = encodeOctets([...s].map((c) => c.toLowerCase()).join(''), SLUG_MAX).toLowerCase();
  s = replaceAll(s, TO_DASH, '-');
  s = replaceAll(s, DROPPED, '');
  s = replaceAll(s, WIDE_SPACES, '-').split('%c3%97').join('x');
  return s
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/[ \t\n\v\f\r]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The stored form of a slug a client names in a path, a `url` or a filter, which may come encoded
 * (`%e9%9f%b3`, `%E9%9F%B3`) or decoded (`音`): lower case, non-ASCII as lower-case octets. A stored
 * slug is its own key, so every lookup by slug goes through this one function.
 */
export function slugKey(input: string): string {
  return encodeOctets([...input].map((c) => c.toLowerCase()).join('')).toLowerCase();
}

/**
 * `base-N`, the base cut (at whole octets) so that the whole stays within SLUG_MAX, as
 * wp_unique_post_slug() does with a long slug.
 */
export function withSuffix(base: string, n: number): string {
  const tail = `-${n}`;
  return `${encodeOctets(base, SLUG_MAX - tail.length)}${tail}`;
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
