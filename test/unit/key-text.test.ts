import { describe, expect, it } from 'vitest';
import { fitsKey, isPossibleSlug, MAX_KEY_TEXT_BYTES, SLUG_MAX_LENGTH } from '../../shared/domain/key-text';
import { pageRouteOf } from '../../shared/domain/page-paths';
import { idOrSlug, slugPath } from '../../shared/schemas/common';

/** Issue 43: request text that could not be a key is never sent to DynamoDB as one. */
describe('text in keys', () => {
  it('is the same slug limit as the API parameters', () => {
    expect(slugPath.properties.slug.maxLength).toBe(SLUG_MAX_LENGTH);
    expect(idOrSlug.maxLength).toBe(SLUG_MAX_LENGTH);
  });

  it('counts bytes, not characters', () => {
    expect(fitsKey('a'.repeat(MAX_KEY_TEXT_BYTES))).toBe(true);
    expect(fitsKey('a'.repeat(MAX_KEY_TEXT_BYTES + 1))).toBe(false);
    expect(fitsKey('€'.repeat(300))).toBe(true); // 900 bytes
    expect(fitsKey('€'.repeat(301))).toBe(false);
    expect(fitsKey('🎉'.repeat(225))).toBe(true); // 450 UTF-16 units, 900 bytes
    expect(fitsKey('🎉'.repeat(226))).toBe(false);
  });

  it('takes slugs up to the limit', () => {
    expect(isPossibleSlug('a'.repeat(200))).toBe(true);
    expect(isPossibleSlug('a'.repeat(201))).toBe(false);
    expect(isPossibleSlug('中'.repeat(200))).toBe(true); // 600 bytes
  });
});

describe('a page path', () => {
  it.each(['/event/', '/venue/', '/organizer/', '/tag/', '/events/category/'])(
    '%s<slug>/ names no page when the slug is over the limit',
    (prefix) => {
      expect(pageRouteOf(`${prefix}${'a'.repeat(200)}/`)).toBeDefined();
      expect(pageRouteOf(`${prefix}${'a'.repeat(201)}/`)).toBeUndefined();
      expect(pageRouteOf(`${prefix}${encodeURIComponent('€'.repeat(201))}/`)).toBeUndefined();
    },
  );

  it('names no category when any slug of its path is over the limit', () => {
    expect(pageRouteOf(`/events/category/${'a'.repeat(201)}/music/`)).toBeUndefined();
  });
});
