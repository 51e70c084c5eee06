import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../shared/http/params';
import { coerce, coerceObject } from '../../shared/schemas/coerce';

/** Query strings and form bodies as WordPress clients send them, and coercion towards a schema. */
describe('parseQueryString', () => {
  it('answers an empty object for no query string', () => {
    expect(parseQueryString(undefined)).toEqual({});
    expect(parseQueryString('')).toEqual({});
  });

  it('reads single values as strings', () => {
    expect(parseQueryString('page=2&search=jazz')).toEqual({ page: '2', search: 'jazz' });
  });

  it('leaves CSV as one string, for coercion to split', () => {
    expect(parseQueryString('include=1,2,music')).toEqual({ include: '1,2,music' });
  });

  it('collects repeated keys into an array, in order', () => {
    expect(parseQueryString('include=3&include=1&include=2')).toEqual({ include: ['3', '1', '2'] });
  });

  it('reads `name[]` keys as an array, even a single one', () => {
    expect(parseQueryString('include[]=1')).toEqual({ include: ['1'] });
    expect(parseQueryString('include[]=1&include[]=jazz')).toEqual({ include: ['1', 'jazz'] });
  });

  it('reads percent-encoded brackets like plain ones', () => {
    expect(parseQueryString('include%5B%5D=1&include%5B%5D=2')).toEqual({ include: ['1', '2'] });
  });

  it('reads indexed `name[0]` keys into the same array', () => {
    expect(parseQueryString('tags[0]=a&tags[1]=b')).toEqual({ tags: ['a', 'b'] });
  });

  it('merges `name` and `name[]` spellings of one key', () => {
    expect(parseQueryString('include=1&include[]=2')).toEqual({ include: ['1', '2'] });
  });

  it('decodes percent-escapes and plus signs', () => {
    expect(parseQueryString('search=caf%C3%A9+au+lait&slug=a%2Fb')).toEqual({
      search: 'café au lait',
      slug: 'a/b',
    });
  });

  it('keeps empty values as empty strings', () => {
    expect(parseQueryString('search=&hide_empty')).toEqual({ search: '', hide_empty: '' });
  });

  it('parses form bodies the same way', () => {
    expect(parseQueryString('name=Music&description=All+things+music&categories[]=1&categories[]=2')).toEqual(
      {
        name: 'Music',
        description: 'All things music',
        categories: ['1', '2'],
      },
    );
  });
});

describe('coerce', () => {
  describe('integers and numbers', () => {
    const int = { type: 'integer' };

    it('turns integer strings into numbers', () => {
      expect(coerce(int, '42')).toBe(42);
      expect(coerce(int, '-3')).toBe(-3);
      expect(coerce(int, '0')).toBe(0);
    });

    it('ignores surrounding spaces', () => {
      expect(coerce(int, ' 7 ')).toBe(7);
    });

    it.each(['abc', '1.5', '', '1e3', '0x10', '12abc'])('leaves %j for ajv to reject', (value) => {
      expect(coerce(int, value)).toBe(value);
    });

    it('turns decimal and exponent strings into numbers when the type is number', () => {
      expect(coerce({ type: 'number' }, '1.5')).toBe(1.5);
      expect(coerce({ type: 'number' }, '-.5')).toBe(-0.5);
      expect(coerce({ type: 'number' }, '2e3')).toBe(2000);
    });

    it('leaves numbers as they are', () => {
      expect(coerce(int, 5)).toBe(5);
    });
  });

  describe('booleans', () => {
    const bool = { type: 'boolean' };

    it.each([
      ['true', true],
      ['1', true],
      ['false', false],
      ['0', false],
      [1, true],
      [0, false],
      [true, true],
      [false, false],
    ])('reads %j as %j', (value, expected) => {
      expect(coerce(bool, value)).toBe(expected);
    });

    it.each(['yes', 'TRUE', '', 'on', 2])('leaves %j for ajv to reject', (value) => {
      expect(coerce(bool, value)).toBe(value);
    });

    it('does not turn 1 into true when a number is also allowed', () => {
      expect(coerce({ type: ['boolean', 'number'] }, 1)).toBe(1);
    });
  });

  describe('arrays', () => {
    const ids = { type: 'array', items: { type: 'integer' } };
    const refs = { type: 'array', items: { type: ['integer', 'string'] } };

    it('splits CSV and coerces each item', () => {
      expect(coerce(ids, '1,2,3')).toEqual([1, 2, 3]);
    });

    it('trims items and drops empty ones', () => {
      expect(coerce(ids, ' 1, 2 ,,3,')).toEqual([1, 2, 3]);
    });

    it('wraps a single value', () => {
      expect(coerce(ids, '7')).toEqual([7]);
      expect(coerce(ids, 7)).toEqual([7]);
    });

    it('coerces each item of a real array', () => {
      expect(coerce(ids, ['1', '2'])).toEqual([1, 2]);
    });

    it('keeps IDs as numbers and slugs as strings in an ID-or-slug list', () => {
      expect(coerce(refs, '4,jazz,12')).toEqual([4, 'jazz', 12]);
    });

    it('leaves bad items for ajv to reject', () => {
      expect(coerce(ids, '1,x')).toEqual([1, 'x']);
    });

    it('reads an empty string as an empty list', () => {
      expect(coerce({ type: ['array', 'null'], items: { type: 'integer' } }, '')).toEqual([]);
    });

    it('does not split a string when a plain string is also allowed', () => {
      expect(coerce({ type: ['array', 'string'], items: { type: 'string' } }, 'a,b')).toBe('a,b');
    });
  });

  describe('nulls, objects and the rest', () => {
    it('reads an empty string as null when null is allowed and a string is not', () => {
      expect(coerce({ type: ['integer', 'null'] }, '')).toBeNull();
      expect(coerce({ type: ['string', 'null'] }, '')).toBe('');
    });

    it('leaves undefined and null alone', () => {
      expect(coerce({ type: 'integer' }, undefined)).toBeUndefined();
      expect(coerce({ type: 'integer' }, null)).toBeNull();
    });

    it('leaves values without a schema alone', () => {
      expect(coerce(undefined, '1')).toBe('1');
      expect(coerce({}, '1')).toBe('1');
    });

    it('leaves strings alone when the type is string', () => {
      expect(coerce({ type: 'string' }, '007')).toBe('007');
    });

    it('coerces the properties of nested objects', () => {
      const schema = { type: 'object', properties: { id: { type: 'integer' }, show: { type: 'boolean' } } };

      expect(coerce(schema, { id: '5', show: '0', other: '1' })).toEqual({ id: 5, show: false, other: '1' });
    });
  });

  describe('coerceObject', () => {
    const schema = {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        hide_empty: { type: 'boolean' },
        include: { type: 'array', items: { type: ['integer', 'string'] } },
      },
    };

    it('coerces every known key and keeps unknown keys as sent', () => {
      expect(
        coerceObject(schema, { page: '2', hide_empty: 'false', include: ['1', 'jazz'], extra: 'x' }),
      ).toEqual({
        page: 2,
        hide_empty: false,
        include: [1, 'jazz'],
        extra: 'x',
      });
    });

    it('does not add keys that were not sent', () => {
      expect(coerceObject(schema, {})).toEqual({});
    });

    it('works on what parseQueryString returns', () => {
      expect(
        coerceObject(schema, parseQueryString('page=3&include[]=2&include[]=music&hide_empty=1')),
      ).toEqual({
        page: 3,
        include: [2, 'music'],
        hide_empty: true,
      });
    });
  });
});
