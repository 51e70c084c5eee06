import type * as Formats from 'ajv-formats/dist/formats';
import { invalidParam } from './errors';
import { someEntry } from './walk';

/**
 * Checks of web-shaped inputs that a JSON Schema `format` cannot express because `""` must also pass
 * (it clears the field, decisions §6); they use ajv-formats' own definitions of a URI and an e-mail
 * address. Those are loaded only by a write whose body holds a web field, on its first such request,
 * instead of at every write function's cold start (issue 9), as text.ts's htmlReady loads the sanitizer.
 */
let formats: (typeof Formats)['fullFormats'] | undefined;

/** The body fields these checks read, at any depth (an event's inline venues and organizers too). */
const WEB_FIELDS = new Set(['website', 'image', 'email']);

const hasWebField = (value: unknown): boolean =>
  someEntry(value, (key, v) => WEB_FIELDS.has(key) && v !== undefined && v !== null);

/** Loads the URI and e-mail definitions when `body` holds a web field. */
export async function webReady(body: unknown): Promise<void> {
  if (formats || !hasWebField(body)) return;
  const mod = (await import('ajv-formats/dist/formats')) as typeof Formats & { default?: typeof Formats };
  // A CommonJS module: Node and tsx give its exports by name, the bundles as the default export.
  formats = mod.fullFormats ?? mod.default!.fullFormats;
}

function loaded(): NonNullable<typeof formats> {
  if (!formats) throw new Error('a URL or e-mail address before webReady(body) loaded its checks');
  return formats;
}

/** An http or https URL, else a 400 naming `param`. */
export function httpUrl(param: string, value: string): string {
  const v = value.trim();
  if (/^https?:\/\//i.test(v) && (loaded().uri as (s: string) => boolean)(v)) return v;
  throw invalidParam(param, `${param} must be an http or https URL.`, 'rest_invalid_url');
}

export function emailAddress(param: string, value: string): string {
  const v = value.trim();
  if ((loaded().email as RegExp).test(v)) return v;
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
