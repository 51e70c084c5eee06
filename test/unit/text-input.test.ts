import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { isWellFormed, withoutControls } from '../../shared/domain/text';
import { loadForBody } from '../../shared/http/lazy-parts';
import { DomainError } from '../../shared/domain/errors';
import { parseBody } from '../../shared/http/body';
import { ApiError } from '../../shared/http/errors';
import { parseQueryString } from '../../shared/http/params';
import { renderCalendar } from '../../shared/services/feeds/ical';
import type { EventView } from '../../shared/services/events';

/**
 * Text that stays text (issue 24): bodies are read in their declared charset, bytes that are not text
 * and lone surrogates are a 400 naming the field (never a silent U+FFFD), C0 control characters other
 * than tab, line feed and carriage return are removed, and none reaches an iCalendar document raw.
 */

/** A request as the local gateway hands it over: the bytes base64-encoded. */
const request = (bytes: Buffer | string, contentType = 'application/json'): APIGatewayProxyEventV2 =>
  ({
    headers: { 'content-type': contentType },
    body: Buffer.from(bytes).toString('base64'),
    isBase64Encoded: true,
  }) as unknown as APIGatewayProxyEventV2;

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** The error a call throws, as status, code and the fields it names. */
function refusal(fn: () => unknown): { status?: number; code: string; params?: Record<string, string> } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code };
    if (e instanceof DomainError) return { code: e.code, params: e.data.params as Record<string, string> };
    throw e;
  }
  throw new Error('no error');
}

describe('bytes that are not text', () => {
  it('are a 400 naming the JSON field that holds them', () => {
    expect(refusal(() => parseBody(request(bytes('{"title":"caf', [0xe9], ' night"}'))))).toEqual({
      code: 'rest_invalid_param',
      params: { title: 'title is not valid UTF-8 text.' },
    });
    const nested = bytes('{"title":"x","organizer":[1,{"organizer":"A', [0xc3, 0x28], '"}]}');
    expect(refusal(() => parseBody(request(nested))).params).toEqual({
      organizer: 'organizer[1].organizer is not valid UTF-8 text.',
    });
  });

  it('name every kind of bad sequence: stray continuation, overlong, surrogate, truncated, past U+10FFFF', () => {
    for (const bad of [
      [0x80],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xef, 0xbf],
      [0xf4, 0x90, 0x80, 0x80],
      [0xff],
    ])
      expect(
        refusal(() => parseBody(request(bytes('{"a":1,"name":"', bad, '"}')))).params,
        String(bad),
      ).toEqual({
        name: 'name is not valid UTF-8 text.',
      });
  });

  it('name the key when the bytes are in it, and the body when they are outside any string', () => {
    expect(
      Object.keys(refusal(() => parseBody(request(bytes('{"ti', [0xff], 'tle":"x"}')))).params!),
    ).toEqual([expect.stringMatching(/^ti\uFFFD+tle$/)]);
    expect(refusal(() => parseBody(request(bytes('{"title":"x"', [0xff], '}')))).params).toEqual({
      body: 'body is not valid UTF-8 text.',
    });
  });

  it('are told from a U+FFFD sent as text, which is kept', () => {
    expect(parseBody(request('{"title":"a\uFFFDb","n":"😀\uFFFD"}'))).toEqual({
      title: 'a\uFFFDb',
      n: '😀\uFFFD',
    });
  });

  it('include a lone surrogate escaped in JSON, which has no UTF-8 form', () => {
    expect(refusal(() => parseBody(request('{"tags":["ok","a\\uD800"]}'))).params).toEqual({
      tags: 'tags[1] is not valid UTF-8 text.',
    });
    expect(parseBody(request('{"title":"\\uD83D\\uDE00"}'))).toEqual({ title: '😀' });
    // An escaped high surrogate just before bad bytes pairs with neither of the two marks.
    expect(refusal(() => parseBody(request(bytes('{"title":"\\uD800', [0xff], '"}')))).params).toHaveProperty(
      'title',
    );
  });

  it('are a 400 naming the form field or query parameter, percent-encoded or raw', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(refusal(() => parseBody(request('name=caf%E9&slug=x', form))).params).toEqual({
      name: 'name is not valid UTF-8 text.',
    });
    expect(
      refusal(() => parseBody(request(bytes('categories[]=a&categories[]=', [0xff]), form))).params,
    ).toEqual({
      categories: 'categories is not valid UTF-8 text.',
    });
    expect(refusal(() => parseQueryString('search=%FF%FE')).params).toEqual({
      search: 'search is not valid UTF-8 text.',
    });
  });
});

describe('charsets', () => {
  it('read ISO-8859-1 and windows-1252 bodies, JSON and form, percent-encoded or raw', () => {
    expect(
      parseBody(request(bytes('{"name":"caf', [0xe9], '"}'), 'application/json; charset=ISO-8859-1')),
    ).toEqual({
      name: 'café',
    });
    expect(
      parseBody(
        request(
          bytes('name=', [0x80], '+caf%E9'),
          'application/x-www-form-urlencoded; charset="windows-1252"',
        ),
      ),
    ).toEqual({ name: '€ café' });
    expect(parseBody(request('{"name":"caf\u00e9"}', 'application/json; charset=utf-8'))).toEqual({
      name: 'café',
    });
  });

  it('refuse a charset they do not know with a 415 naming what is accepted', () => {
    const r = refusal(() => parseBody(request('{"name":"x"}', 'application/json; charset=klingon')));
    expect(r).toEqual({ status: 415, code: 'rest_unsupported_charset' });
    try {
      parseBody(request('{}', 'application/json; charset=klingon'));
    } catch (e) {
      expect((e as Error).message).toMatch(/UTF-8.*ISO-8859-1.*windows-1252/);
    }
  });

  it('keep the answers they gave: blank bodies, malformed JSON, a byte order mark now skipped', () => {
    expect(parseBody(request('  \n'))).toEqual({});
    expect(refusal(() => parseBody(request('{"a":')))).toEqual({ status: 400, code: 'rest_invalid_json' });
    expect(parseBody(request(bytes([0xef, 0xbb, 0xbf], '{"a":"b"}')))).toEqual({ a: 'b' });
  });
});

describe('control characters', () => {
  it('are removed from every string of a body, except tab, line feed and carriage return', () => {
    expect(
      parseBody(
        request(
          JSON.stringify({ title: 'Jazz\u0000 Night\u0007', cost: ['$1\u001b5'], d: 'a\tb\r\nc\u000b' }),
        ),
      ),
    ).toEqual({ title: 'Jazz Night', cost: ['$15'], d: 'a\tb\r\nc' });
    expect(parseBody(request('phone=%2B33%01+1%0023', 'application/x-www-form-urlencoded'))).toEqual({
      phone: '+33 123',
    });
  });

  it('are removed however deep the body nests', () => {
    const depth = 20_000;
    const deep = `${'{"a":'.repeat(depth)}"x\\u0001y"${'}'.repeat(depth)}`;
    let value: unknown = parseBody(request(deep));
    for (let i = 0; i < depth; i++) value = (value as { a: unknown }).a;
    expect(value).toBe('xy');
    const bad = `{"list":[${'['.repeat(depth)}"\\uDFFF"${']'.repeat(depth)}]}`;
    expect(Object.keys(refusal(() => parseBody(request(bad))).params!)).toEqual(['list']);
  });

  it('leave the on-demand loaders able to look through a body of any depth', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    await expect(loadForBody({ title: deep })).resolves.toBeUndefined();
  });

  it('are exactly C0 but tab, LF and CR; surrogate pairs are text, lone ones are not', () => {
    const all = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i)).join('');
    expect(withoutControls(all)).toBe(`\t\n\r${all.slice(0x20)}`);
    expect(isWellFormed('😀 é')).toBe(true);
    expect(isWellFormed('\uD83D')).toBe(false);
    expect(isWellFormed('\uDE00\uD83D')).toBe(false);
  });

  it('never reach an iCalendar document raw, even from text stored before the rule', () => {
    const event = {
      id: 7,
      status: 'publish',
      title: 'Bad\u0001 title\u007f',
      description: '<p>Line\u0000 one\u000b</p>',
      url: 'http://calendar.test/event/x/',
      all_day: false,
      start_date: '2027-03-13 22:00:00',
      end_date: '2027-03-14 10:00:00',
      utc_start_date: '2027-03-14 03:00:00',
      utc_end_date: '2027-03-14 14:00:00',
      timezone: 'UTC',
      categories: [{ name: 'Ca\u0002t' }],
      venue: { venue: 'Hall\u001f', city: 'Paris' },
      organizer: [],
    } as unknown as EventView;
    const text = renderCalendar([event], new Date('2026-11-23T12:00:00Z'));
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('summary')).toBe('Bad title');
    expect(vevent.getFirstPropertyValue('location')).toBe('Hall, Paris');
  });
});
