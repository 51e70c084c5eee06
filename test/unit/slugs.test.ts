import { describe, expect, it } from 'vitest';
import { highestSuffix, slugify } from '../../shared/domain/slugs';

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

describe("highestSuffix (a base's next slug is one above it)", () => {
  it('is 0 when nothing is taken', () => {
    expect(highestSuffix('music', [])).toBe(0);
  });

  it('is 0 when only other slugs are taken', () => {
    expect(highestSuffix('music', ['musical', 'jazz', 'music-festival'])).toBe(0);
  });

  it('counts suffixed forms even when the base is free', () => {
    expect(highestSuffix('music', ['music-2', 'music-3'])).toBe(3);
  });

  it('is 1 for the base alone, so suffixes start at -2', () => {
    expect(highestSuffix('music', ['music'])).toBe(1);
  });

  it('is the highest taken suffix', () => {
    expect(highestSuffix('music', ['music', 'music-2', 'music-5'])).toBe(5);
  });

  it('does not fill gaps below the highest suffix', () => {
    expect(highestSuffix('music', ['music', 'music-3'])).toBe(3);
  });

  it('counts -1 like the base, so the next is -2', () => {
    expect(highestSuffix('music', ['music', 'music-1'])).toBe(1);
  });

  it('does not count slugs that only start like the base', () => {
    expect(highestSuffix('music', ['music', 'music-festival', 'music-festival-9', 'musical-4'])).toBe(1);
  });

  it('treats regular-expression characters in the base literally', () => {
    expect(highestSuffix('a.b', ['a.b', 'axb-7'])).toBe(1);
  });

  it('works on a base that itself ends in a number', () => {
    expect(highestSuffix('summer-2026', ['summer-2026'])).toBe(1);
  });

  it('reads any iterable, such as a Set', () => {
    expect(highestSuffix('jazz', new Set(['jazz', 'jazz-2']))).toBe(2);
  });
});
