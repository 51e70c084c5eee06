/** Splits query strings and form bodies into plain objects: WordPress clients send arrays as CSV,
 * repeated keys or `name[]`; `schemas/coerce.ts` then types the values. */
type Raw = Record<string, string | string[]>;

export function parseQueryString(raw: string | undefined): Raw {
  const out: Raw = {};
  if (!raw) return out;
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey.replace(/\[\d+\]$/, '');
    const prev = out[key];
    if (prev === undefined) out[key] = isArray ? [value] : value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
