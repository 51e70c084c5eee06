/** Longest digit run (leading zeros aside) a sortable name may hold: runs are padded to this width. */
const DIGITS = 12;

/**
 * The byte-ordered form of a term name that sorts as the term lists compare names (an English
 * collator at base sensitivity with numeric runs: case and accents ignored, `tag2` before `tag10`),
 * or undefined when the name holds a character whose collation order bytes cannot reproduce.
 *
 * Only lower-case letters, digits, spaces and hyphens (after folding case and stripping accents) are
 * sortable: the collator puts space < hyphen < digits < letters, which their bytes keep once a space
 * becomes `!` (so that the index key's separator, a space, sorts below every name character and a
 * name sorts before its extensions). A digit run becomes its value, zero-padded to DIGITS.
 */
export function termSortName(name: string): string | undefined {
  const folded = name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  if (!/^[a-z0-9 -]*$/.test(folded)) return undefined;
  let out = '';
  for (const run of folded.match(/[0-9]+|[^0-9]+/g) ?? []) {
    if (!/^[0-9]/.test(run)) {
      out += run.replaceAll(' ', '!');
      continue;
    }
    const value = run.replace(/^0+(?=.)/, '');
    if (value.length > DIGITS) return undefined;
    out += value.padStart(DIGITS, '0');
  }
  return out;
}
