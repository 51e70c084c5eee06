import { TextDecoder } from 'node:util';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { isWellFormed, toWellFormed, withoutControls } from '../domain/text';
import { invalidJson, payloadTooLarge, unsupportedCharset, unsupportedMediaType } from './errors';
import { decodeBytes, invalidText, parseQueryString } from './params';

/**
 * Reads a JSON or form body (WordPress clients send both) into a plain object, as text (issue 24):
 * the bytes are read in the charset the Content-Type names (UTF-8 by default; ISO-8859-1,
 * windows-1252 or another charset of the WHATWG Encoding Standard; any other is a 415); bytes that
 * charset cannot read, and JSON strings holding a lone surrogate, are a 400 naming the field; every
 * string loses its C0 control characters other than tab, line feed and carriage return.
 *
 * The bytes are seen when the body arrives base64-encoded, as the local gateway always sends it; a
 * body API Gateway hands over as a string has been decoded as UTF-8 already.
 */
export function parseBody(
  event: APIGatewayProxyEventV2,
  /** Text media types the operation takes, each into one string field (contracts/types.ts). */
  textBody?: Readonly<Record<string, string>>,
): Record<string, unknown> {
  if (!event.body) return {};
  let bytes = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.byteLength > config.maxBodyBytes) throw payloadTooLarge(config.maxBodyBytes);
  if (bytes.toString('utf8').trim() === '') return {};
  const { type, charset } = mediaType(event.headers?.['content-type']);
  const json = type === 'application/json' || type.endsWith('+json');
  const textField = textBody?.[type];
  if (!json && !textField && type !== 'application/x-www-form-urlencoded')
    throw unsupportedMediaType(type || 'none');
  const decoder = decoderFor(charset);
  if (textField) return cleanStrings({ [textField]: readText(bytes, decoder) });
  if (!json) return cleanStrings(parseQueryString(bytes, formDecoder(decoder)));

  let text: string;
  let bad: number | undefined;
  if (decoder.encoding === 'utf-8') {
    // A byte order mark may start JSON text (RFC 8259 §8.1): it is no part of the value.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    text = bytes.toString('utf8');
    bad = firstInvalidUtf8(bytes, text);
    // The U+FFFD standing for those bytes becomes two lone surrogates, which JSON.parse keeps in its
    // string (two, so that an escaped high surrogate before them cannot pair with both): the walk of
    // cleanStrings then names the field that held the bytes.
    if (bad !== undefined) text = `${text.slice(0, bad)}\uDC00\uDC00${text.slice(bad + 1)}`;
  } else
    try {
      text = decodeBytes(decoder, bytes);
    } catch {
      throw invalidText('body', decoder.encoding);
    }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bad === undefined ? invalidJson() : invalidText('body', 'utf-8');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidJson();
  return cleanStrings(parsed as Record<string, unknown>);
}

/** A text body in its charset (a byte order mark dropped); bytes it cannot read are a 400 naming `body`. */
function readText(bytes: Buffer, decoder: TextDecoder): string {
  try {
    return decodeBytes(decoder, bytes).replace(/^\uFEFF/, '');
  } catch {
    throw invalidText('body', decoder.encoding);
  }
}

/** The media type of a Content-Type header, lower case, and its charset parameter if any. */
function mediaType(header: string | undefined): { type: string; charset?: string } {
  const [type, ...params] = (header ?? '').split(';');
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(p)?.[1])
    .find((c) => c !== undefined);
  return { type: type!.trim().toLowerCase(), charset };
}

const decoders = new Map<string, TextDecoder>();

/** A decoder that throws on bytes its charset cannot read; a 415 for a charset it does not know. */
function decoderFor(charset = 'utf-8'): TextDecoder {
  const label = charset.trim().toLowerCase();
  let decoder = decoders.get(label);
  if (!decoder) {
    try {
      decoder = new TextDecoder(label, { fatal: true });
    } catch {
      throw unsupportedCharset(charset);
    }
    decoders.set(label, decoder);
  }
  return decoder;
}

/** Form bodies are ASCII: a UTF-16 one is read as UTF-8, as the WHATWG urlencoded parser does. */
const formDecoder = (d: TextDecoder) => (d.encoding.startsWith('utf-16') ? decoderFor('utf-8') : d);

/**
 * Where the first bytes that are not UTF-8 are in `text`, the bytes decoded leniently (each such
 * sequence one U+FFFD): the index of that U+FFFD, or undefined when every byte is UTF-8. A U+FFFD
 * sent as text is its own three bytes, EF BF BD; one standing for bad bytes is not.
 */
function firstInvalidUtf8(bytes: Uint8Array, text: string): number | undefined {
  if (!text.includes('\uFFFD')) return undefined;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp === 0xfffd && !(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd)) return i;
    at += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (cp >= 0x10000) i++;
  }
  return undefined;
}

/** A place in a parsed body: the object or array holding a value, its key there, and where that is. */
interface Place {
  holder: Record<string, unknown> | unknown[];
  key: string;
  up?: Place;
}

/**
 * A parsed body with every string (keys too) checked to be text, else a 400 naming the field, and
 * every string value cleared of its control characters (domain/text.ts withoutControls), in place.
 * Iterative, in document order: a body may nest thousands of levels deep.
 */
function cleanStrings(root: Record<string, unknown>): Record<string, unknown> {
  const todo: Place[] = [];
  const enter = (holder: Place['holder'], up?: Place) => {
    const keys = Object.keys(holder);
    for (let i = keys.length - 1; i >= 0; i--) todo.push({ holder, key: keys[i]!, up });
  };
  enter(root);
  for (let place = todo.pop(); place; place = todo.pop()) {
    const { holder, key } = place;
    if (!isWellFormed(key)) throw notText(place, toWellFormed(key));
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (!isWellFormed(value)) throw notText(place, key);
      const clean = withoutControls(value);
      if (clean !== value) (holder as Record<string, unknown>)[key] = clean;
    } else if (value !== null && typeof value === 'object') enter(value as Place['holder'], place);
  }
  return root;
}

/** The 400 for the field at `place` (its own key spelt `key`), named as validation errors name it. */
function notText(place: Place, key: string) {
  const path = [key];
  for (let up = place.up; up; up = up.up) path.unshift(up.key);
  return invalidText(path[0]!, 'utf-8', labelOf(path));
}

/** Human label of a field: `venue`, `organizer[1].email` (as validation errors name them). */
const labelOf = (path: string[]) =>
  path.reduce(
    (acc, seg, i) => (i === 0 ? seg : /^\d+$/.test(seg) ? `${acc}[${seg}]` : `${acc}.${seg}`),
    '',
  ) || 'body';
