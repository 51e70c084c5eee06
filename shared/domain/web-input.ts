import { fullFormats } from 'ajv-formats/dist/formats';
import { invalidParam } from './errors';

/**
 * Checks of web-shaped inputs that a JSON Schema `format` cannot express because `""` must also pass
 * (it clears the field, decisions §6); they use ajv-formats' own definitions so that the contract and
 * these checks cannot disagree.
 */
const isUri = fullFormats.uri as (s: string) => boolean;
const EMAIL = fullFormats.email as RegExp;

/** An http or https URL, else a 400 naming `param`. */
export function httpUrl(param: string, value: string): string {
  const v = value.trim();
  if (/^https?:\/\//i.test(v) && isUri(v)) return v;
  throw invalidParam(param, `${param} must be an http or https URL.`, 'rest_invalid_url');
}

export function emailAddress(param: string, value: string): string {
  const v = value.trim();
  if (EMAIL.test(v)) return v;
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
