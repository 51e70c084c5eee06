import { TextDecoder } from 'node:util';
import { invalidParam } from '../domain/errors';

/** Splits query strings and form bodies into plain objects: WordPress clients send arrays as CSV,
 * repeated keys or `name[]`; `schemas/coerce.ts` then types the values. */
type Raw = Record<string, string | string[]>;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A query string, or a form body's bytes in the charset `decoder` reads (a fatal one, UTF-8 by
 * default), parsed as URLSearchParams does (the WHATWG urlencoded parser: `+` is a space, `%XX` a
 * byte, any other `%` itself), except that bytes the charset cannot read are a 400 naming the
 * parameter instead of U+FFFD.
 */
export function parseQueryString(raw: string | Uint8Array | undefined, decoder = UTF8): Raw {
  const out: Raw = {};
  if (!raw || raw.length === 0) return out;
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x26, start); // &
    if (end < 0) end = bytes.length;
    if (end > start) {
      let eq = bytes.indexOf(0x3d, start); // =
      if (eq < 0 || eq > end) eq = end;
      const rawKey = decodePart(bytes.subarray(start, eq), decoder);
      const value = eq < end ? decodePart(bytes.subarray(eq + 1, end), decoder) : '';
      if (typeof rawKey !== 'string') throw invalidText(keyOf(rawKey.lenient), decoder.encoding);
      if (typeof value !== 'string') throw invalidText(keyOf(rawKey), decoder.encoding);
      add(out, rawKey, value);
    }
    start = end + 1;
  }
  return out;
}

/** The parameter a key names: `tags`, `tags[]` and `tags[0]` are all `tags`. */
const keyOf = (rawKey: string) =>
  rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey.replace(/\[\d+\]$/, '');

function add(out: Raw, rawKey: string, value: string): void {
  const isArray = rawKey.endsWith('[]');
  const key = keyOf(rawKey);
  const prev = out[key];
  if (prev === undefined) out[key] = isArray ? [value] : value;
  else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
}

const hex = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;

/** One name or value: `+` to a space, `%XX` to its byte, then the bytes read by the charset. */
function decodePart(part: Uint8Array, decoder: TextDecoder): string | { lenient: string } {
  const bytes = new Uint8Array(part.length);
  let n = 0;
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    const hi = c === 0x25 && i + 2 < part.length ? hex(part[i + 1]!) : -1;
    const lo = hi >= 0 ? hex(part[i + 2]!) : -1;
    if (lo >= 0) {
      bytes[n++] = hi * 16 + lo;
      i += 2;
    } else bytes[n++] = c === 0x2b ? 0x20 : c;
  }
  try {
    return decodeBytes(decoder, bytes.subarray(0, n));
  } catch {
    return { lenient: new TextDecoder(decoder.encoding, { ignoreBOM: true }).decode(bytes.subarray(0, n)) };
  }
}

/** windows-1252's characters for bytes 0x80-0x9F (five of them unassigned: those stay C1 controls). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * The text of `bytes` in the decoder's charset; throws on bytes it cannot read (a fatal decoder).
 * Node 20's windows-1252 decoder (which ISO-8859-1 and US-ASCII bodies also get, as the Encoding
 * Standard says) reads bytes 0x80-0x9F as ISO-8859-1 does: they are mapped here as windows-1252 has
 * them (€ for 0x80, ’ for 0x92), which a correct decoder gives already.
 */
export function decodeBytes(decoder: TextDecoder, bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252'
    ? text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
    : text;
}

/**
 * The 400 for a parameter or body field (`label`, under the top-level `name`) whose bytes are not
 * text in the request's charset, or whose JSON string holds a lone surrogate (no UTF-8 form).
 */
export const invalidText = (name: string, encoding: string, label = name) =>
  invalidParam(
    name,
    `${label} is not valid ${encoding === 'utf-8' ? 'UTF-8' : encoding} text.`,
    'rest_invalid_text',
  );
