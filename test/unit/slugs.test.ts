import { describe, expect, it } from 'vitest';
import { nextFreeSlug, slugify } from '../../shared/domain/slugs';

describe('slugify', () => {
  it.each([
    ['Music', 'music'],
    ['Late Night', 'late-night'],
    ['  Padded  Title  ', 'padded-title'],
    ['Workshops & Classes', 'workshops-classes'],
    ['Rock &amp; Roll', 'rock-roll'],
    ['Café Crème', 'cafe-creme'],
    ['Ångström über Straße', 'angstrom-uber-strasse'],
    ['Smørrebrød', 'smorrebrod'],
    ['Łódź Æsir Œuvre', 'lodz-aesir-oeuvre'],
    ['Hello, World!', 'hello-world'],
    ['v1.2_final', 'v1-2-final'],
    ['--Already-Dashed--', 'already-dashed'],
    ['a - b -- c', 'a-b-c'],
    ['2026 Summer Fest', '2026-summer-fest'],
    ['Tab\tand\nnewline', 'tab-and-newline'],
  ])('turns %j into %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it.each(['', '   ', '!!!', '---', '日本語', '🎉'])(
    'answers an empty slug for %j (nothing to keep)',
    (input) => {
      expect(slugify(input)).toBe('');
    },
  );

  it('keeps a slug that is already clean', () => {
    expect(slugify('jazz-night-2')).toBe('jazz-night-2');
  });

  it('is idempotent', () => {
    const once = slugify('Ünïcödé & Friends: Live!');

    expect(slugify(once)).toBe(once);
  });

  it('cuts long slugs to 190 characters', () => {
    expect(slugify('a'.repeat(300))).toHaveLength(190);
  });
});

describe('nextFreeSlug', () => {
  it('answers the base when nothing is taken', () => {
    expect(nextFreeSlug('music', [])).toBe('music');
  });

  it('answers the base when only other slugs are taken', () => {
    expect(nextFreeSlug('music', ['musical', 'jazz', 'music-festival'])).toBe('music');
  });

  it('answers the base when only suffixed forms are taken', () => {
    expect(nextFreeSlug('music', ['music-2', 'music-3'])).toBe('music');
  });

  it('starts suffixes at -2', () => {
    expect(nextFreeSlug('music', ['music'])).toBe('music-2');
  });

  it('goes one above the highest taken suffix', () => {
    expect(nextFreeSlug('music', ['music', 'music-2', 'music-5'])).toBe('music-6');
  });

  it('does not fill gaps below the highest suffix', () => {
    expect(nextFreeSlug('music', ['music', 'music-3'])).toBe('music-4');
  });

  it('skips -2 when -1 is taken', () => {
    expect(nextFreeSlug('music', ['music', 'music-1'])).toBe('music-2');
  });

  it('does not count slugs that only start like the base', () => {
    expect(nextFreeSlug('music', ['music', 'music-festival', 'music-festival-9', 'musical-4'])).toBe(
      'music-2',
    );
  });

  it('treats regular-expression characters in the base literally', () => {
    expect(nextFreeSlug('a.b', ['a.b', 'axb-7'])).toBe('a.b-2');
  });

  it('works on a base that itself ends in a number', () => {
    expect(nextFreeSlug('summer-2026', ['summer-2026'])).toBe('summer-2026-2');
  });

  it('reads any iterable, such as a Set', () => {
    expect(nextFreeSlug('jazz', new Set(['jazz', 'jazz-2']))).toBe('jazz-3');
  });
});
