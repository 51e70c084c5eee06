import { describe, expect, it } from 'vitest';
import { DomainError } from '../../shared/domain/errors';
import { assertMeets, meets, withRevision } from '../../shared/domain/revisions';
import { isNotModified } from '../../shared/http/conditional';
import { entityTag, parseIfMatch, withEntityTag } from '../../shared/http/etag';

/**
 * Entity tags and preconditions as pure rules (shared/http/etag.ts, conditional.ts,
 * shared/domain/revisions.ts). test/integration/conditional-requests.test.ts keeps proving them through
 * HTTP, with the version check inside the write.
 */

const record = { id: 42, version: 3 };

describe('entityTag', () => {
  it('names a record view by its ID and version, then a digest of the body', () => {
    const view = withRevision({ id: 42, title: 'Jazz' }, record);

    const tag = entityTag(view, JSON.stringify(view));

    expect(tag).toMatch(/^"42-3-[A-Za-z0-9_-]{22}"$/);
  });

  it('tags anything else (a list) by its digest alone', () => {
    expect(entityTag([1, 2], '[1,2]')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('gives two bodies of one version different tags (what the caller sees changes the tag)', () => {
    const a = withRevision({ id: 42, title: 'Jazz' }, record);
    const b = withRevision({ id: 42, title: 'Jazz', cost: 'Free' }, record);

    expect(entityTag(a, JSON.stringify(a))).not.toBe(entityTag(b, JSON.stringify(b)));
  });

  it('keeps an ETag a stored reply already has, and adds one otherwise', () => {
    const tagged = { status: 201, body: { id: 1 }, headers: { ETag: '"kept"' } };

    expect(withEntityTag(tagged).headers?.ETag).toBe('"kept"');
    expect(withEntityTag({ status: 201, body: { id: 1 } }).headers?.ETag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });
});

describe('parseIfMatch and meets', () => {
  it('has no precondition without the header, and lets every write go ahead', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(meets(undefined, record)).toBe(true);
  });

  it('reads * as any current record', () => {
    expect(parseIfMatch(' * ')).toEqual({ any: true });
    expect(meets({ any: true }, record)).toBe(true);
  });

  it('reads the revision of a full tag and of a bare "<id>-<version>"', () => {
    expect(parseIfMatch('"42-3-abcDEF_123"')).toEqual({ any: false, revisions: [record] });
    expect(parseIfMatch('"42-3"')).toEqual({ any: false, revisions: [record] });
  });

  it('takes the current version among several tags', () => {
    const p = parseIfMatch('"42-2-x", "42-3-y"')!;

    expect(meets(p, record)).toBe(true);
  });

  it('never matches a weak tag, a tag of no record, or another record or version', () => {
    for (const header of ['W/"42-3-abc"', '"not-a-version"', '"43-3-abc"', '"42-2-abc"', '']) {
      const p = parseIfMatch(header)!;

      expect(meets(p, record), header).toBe(false);
    }
  });

  it('refuses a write on another version with a 412 naming the resource', () => {
    const p = parseIfMatch('"42-2-abc"');

    let thrown: unknown;
    try {
      assertMeets(p, record, 'event');
    } catch (e) {
      thrown = e;
    }

    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ kind: 'precondition-failed', code: 'rest_precondition_failed' });
    expect((thrown as Error).message).toMatch(/^The event was changed since the version named in If-Match/);
    expect(() => assertMeets(parseIfMatch('"42-3"'), record, 'event')).not.toThrow();
  });
});

describe('isNotModified', () => {
  const etag = '"42-3-abc"';

  it('answers 304 for the current ETag, weak or strong (a weak comparison)', () => {
    expect(isNotModified({ 'If-None-Match': etag }, { ETag: etag })).toBe(true);
    expect(isNotModified({ 'if-none-match': `W/${etag}` }, { etag })).toBe(true);
    expect(isNotModified({ 'if-none-match': `"other", ${etag}` }, { etag })).toBe(true);
  });

  it('answers 200 for another tag, and for a response without one', () => {
    expect(isNotModified({ 'if-none-match': '"42-2-abc"' }, { etag })).toBe(false);
    expect(isNotModified({ 'if-none-match': etag }, {})).toBe(false);
  });

  it('takes * as any current entity', () => {
    expect(isNotModified({ 'if-none-match': '*' }, { etag })).toBe(true);
  });

  it('reads If-Modified-Since only without If-None-Match', () => {
    const modified = { etag, 'last-modified': 'Wed, 12 Mar 2031 19:00:00 GMT' };

    expect(isNotModified({ 'if-modified-since': 'Wed, 12 Mar 2031 19:00:00 GMT' }, modified)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'Wed, 12 Mar 2031 18:59:59 GMT' }, modified)).toBe(false);
    expect(
      isNotModified(
        { 'if-modified-since': 'Wed, 12 Mar 2031 19:00:00 GMT', 'if-none-match': '"stale"' },
        modified,
      ),
    ).toBe(false);
  });

  it('ignores a date it cannot read', () => {
    expect(isNotModified({ 'if-modified-since': 'yesterday' }, { 'last-modified': 'also not' })).toBe(false);
  });
});
