/**
 * String length in Unicode code points, as JSON Schema's `minLength` / `maxLength` count it: ajv's
 * runtime helper (ajv/dist/runtime/ucs2length, MIT), here so that validators compiled ahead of time
 * import a plain ESM function in every runtime (Lambda bundles, tsx, vitest) alike.
 */
export function ucs2length(str: string): number {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    // A high surrogate followed by a low one is one code point.
    if (value >= 0xd800 && value <= 0xdbff && pos < len && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}
