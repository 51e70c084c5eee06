import { domainToASCII } from 'node:url';
import type * as Formats from 'ajv-formats/dist/formats';
import { invalidParam } from './errors';

/**
 * Checks of web-shaped inputs that a JSON Schema `format` cannot express because `""` must also pass
 * (it clears the field, decisions §6); they use ajv-formats' own definitions of a URI and an e-mail
 * address. Those are loaded only for a body that holds a web field, on its first such request, instead
 * of at every write function's cold start (issue 9): shared/http/lazy-parts.ts loads them before the
 * service runs and hands them over here.
 */
export type WebFormats = (typeof Formats)['fullFormats'];
let formats: WebFormats | undefined;

/** The body fields these checks read, at any depth (an event's inline venues and organizers too). */
const WEB_FIELDS = new Set(['website', 'image', 'email']);

/** Whether a body entry is one these checks read: what makes a body need them. */
export const isWebField = (key: string, value: unknown): boolean =>
  WEB_FIELDS.has(key) && value !== undefined && value !== null;

/** Takes the URI and e-mail definitions shared/http/lazy-parts.ts loaded. */
export function useWebFormats(loadedFormats: WebFormats): void {
  formats = loadedFormats;
}

function loaded(): WebFormats {
  if (!formats) throw new Error('a URL or e-mail address before shared/http/lazy-parts.ts loaded its checks');
  return formats;
}

/** An http or https URL, else a 400 naming `param`. */
export function httpUrl(param: string, value: string): string {
  const v = value.trim();
  if (/^https?:\/\//i.test(v) && (loaded().uri as (s: string) => boolean)(v)) return v;
  throw invalidParam(param, `${param} must be an http or https URL.`, 'rest_invalid_url');
}

/**
 * An e-mail address, internationalized ones too (RFC 6531, decisions §9: `ÜNICODE@exämple.com`), kept
 * as written, else a 400 naming `param`. ajv-formats knows ASCII addresses only (it has no `idn-email`),
 * so an address is checked as its ASCII form: the domain as IDNA (punycode) gives it, and each
 * non-ASCII letter of the local part (which RFC 6531 allows where ASCII letters go) as one letter.
 */
export function emailAddress(param: string, value: string): string {
  const v = value.trim();
  const at = v.lastIndexOf('@');
  const domain = at > 0 ? domainToASCII(v.slice(at + 1)) : '';
  const local = v
    .slice(0, Math.max(at, 0))
    .replace(/[^\x00-\x7f]/gu, (c) => (/\p{L}|\p{N}/u.test(c) ? 'a' : ' '));
  if (domain && (loaded().email as RegExp).test(`${local}@${domain}`)) return v;
  throw invalidParam(param, `${param} must be an e-mail address.`, 'rest_invalid_email');
}

/** `image` input: an http(s) URL. A number is refused with the reason: there is no media library. */
export function imageUrl(param: string, value: string | number): string {
  if (typeof value === 'number' || /^\d+$/.test(value.trim()))
    throw invalidParam(
      param,
      `${param} must be an http or https URL: this service has no media library, so image IDs do not exist.`,
      'rest_invalid_image',
    );
  return httpUrl(param, value);
}
