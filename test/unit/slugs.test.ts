import { describe, expect, it } from 'vitest';
import { highestSuffix, slugify, slugKey, withSuffix } from '../../shared/domain/slugs';

describe('slugify', () => {
  it.each([
    ['Music', 'music'],
    ['Late Night', 'late-night'],
    ['  Padded  Title  ', 'padded-title'],
    ['Workshops & Classes', 'workshops-classes'],
    ['Rock &amp; Roll', 'rock-roll'],
    ['Café Crème', 'cafe-creme'],
    ['Ångström über Straße', 'angstrom-uber-strase'],
    ['Smørrebrød', 'smorrebrod'],
    ['Łódź Æsir Œuvre', 'lodz-aesir-oeuvre'],
    ['Hello, World!', 'hello-world'],
    ['v1.2_final', 'v1-2_final'],
    ['--Already-Dashed--', 'already-dashed'],
    ['a - b -- c', 'a-b-c'],
    ['2026 Summer Fest', '2026-summer-fest'],
    // WordPress keeps only spaces as word breaks; tabs and newlines are dropped (decisions §9).
    ['Tab\tand\nnewline', 'tabandnewline'],
  ])('turns %j into %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it.each(['', '   ', '!!!', '---', '“”', '<b></b>'])(
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

  it('cuts long slugs to 200 characters', () => {
    expect(slugify('a'.repeat(300))).toHaveLength(200);
  });

  // decisions §9: WordPress's sanitize_title(); the expected values are the reference's answers (issue 39).
  it.each([
    ['Концерт Juniper', '%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-juniper'],
    ['Москва-концерт', '%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0-%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82'],
    ['家族', '%e5%ae%b6%e6%97%8f'],
    ['early_bird/special', 'early_bird-special'],
    ['Jazz/Blues', 'jazz-blues'],
    ['音楽', '%e9%9f%b3%e6%a5%bd'],
    ['Drum Circle 🥁', 'drum-circle-%f0%9f%a5%81'],
    ['東京-meetup', '%e6%9d%b1%e4%ba%ac-meetup'],
    ['%E9%9F%B3%E6%A5%BD', '%e9%9f%b3%e6%a5%bd'],
    ['fran%c3%a7%ois', 'fran%c3%a7ois'],
    ['Captain <strong>Awesome</strong>', 'captain-awesome'],
    ['a – b — c', 'a-b-c'],
    ['“Quoted” ©2027…', 'quoted-2027'],
    ['9×9', '9x9'],
    ['Ça va? Việt Nam', 'ca-va-viet-nam'],
  ])('follows WordPress for %j → %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it('cuts at 200 characters of the encoded form without splitting a character', () => {
    expect(slugify('音'.repeat(100))).toBe('%e9%9f%b3'.repeat(22));
    expect(slugify(`a${'音'.repeat(100)}`)).toHaveLength(199);
    expect(slugify(`${'a'.repeat(199)}音`)).toBe('a'.repeat(199));
  });

  it('gives the same slug for the encoded and the decoded form', () => {
    expect(slugify('%e9%9f%b3%e6%a5%bd')).toBe(slugify('音楽'));
  });
});

describe('slugKey (the stored form of a slug a client names)', () => {
  it.each([
    ['音楽', '%e9%9f%b3%e6%a5%bd'],
    ['%E9%9F%B3%E6%A5%BD', '%e9%9f%b3%e6%a5%bd'],
    ['%e9%9f%b3%e6%a5%bd', '%e9%9f%b3%e6%a5%bd'],
    ['Концерт-juniper', '%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-juniper'],
    ['jazz-night-2', 'jazz-night-2'],
  ])('%j → %j', (input, key) => {
    expect(slugKey(input)).toBe(key);
  });
});

describe('withSuffix', () => {
  it('appends -N', () => {
    expect(withSuffix('music', 2)).toBe('music-2');
  });

  it('cuts a long base at whole characters so that the slug stays within 200', () => {
    expect(withSuffix('a'.repeat(200), 2)).toBe(`${'a'.repeat(198)}-2`);
    expect(withSuffix('%e9%9f%b3'.repeat(22), 10)).toBe(`${'%e9%9f%b3'.repeat(21)}-10`);
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
