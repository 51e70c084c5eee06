/**
 * Text from a request that reaches a DynamoDB key (a slug, a term's name). DynamoDB refuses a key
 * over 1,024 bytes (sort keys and index keys; 2,048 for a partition key) with a ValidationException,
 * which is a 5xx unless nothing that long is ever sent (issue 43: an event page with a 1,100-character
 * slug answered 503). UTF-8 makes a character up to 4 bytes, so lengths alone do not bound bytes.
 */

/** The longest slug a record can have (the API's `slug` parameters say so too): longer names nothing. */
export const SLUG_MAX_LENGTH = 200;

/** The most bytes of request text a key holds, leaving room for the key's prefix (`SLUG#<type>#`). */
export const MAX_KEY_TEXT_BYTES = 900;

const encoder = new TextEncoder();

/** Whether a text fits in a key; one that does not names no record, so it is not looked up. */
export const fitsKey = (text: string): boolean =>
  text.length <= MAX_KEY_TEXT_BYTES / 3 || encoder.encode(text).length <= MAX_KEY_TEXT_BYTES;

/** Whether a slug from a request can name a record at all: within the slug limit, and fits a key. */
export const isPossibleSlug = (slug: string): boolean => slug.length <= SLUG_MAX_LENGTH && fitsKey(slug);
