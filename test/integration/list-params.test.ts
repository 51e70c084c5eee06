import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../shared/contracts';
import type { Operation } from '../../shared/contracts/types';
import { fingerprintTable } from '../support/fingerprint';
import { useStack } from '../support/use-stack';

/**
 * Every list route, driven with arbitrary values of each of its query parameters (issue 24): dates at
 * and past both ends of the calendar (year 1, year 9999), relative phrases that land beyond them, huge,
 * negative and fractional numbers, pages far past the end, long strings and odd Unicode (percent-encoded
 * bytes that are not UTF-8 included). For every request:
 *
 *   1. the answer is never a 5xx;
 *   2. it is the list envelope (JSON lists), an iCalendar document (feeds), or the error envelope
 *      `{code, message, data: {status}}` with `data.status` the HTTP status;
 *   3. nothing changes: the table's fingerprint after a route's runs equals the one before.
 *
 * Runs: 30 a route by default (a fixed seed, FC_SEED to change it); FC_RUNS_SCALE multiplies them, as in
 * hostile-input.test.ts, e.g. FC_RUNS_SCALE=20 for a long run; each route stops starting runs after
 * FC_ROUTE_MAX_MS (default 20 s) so that a busy machine keeps the file short.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const SEED = Number(process.env.FC_SEED ?? 20_261_127);
const RUNS = Math.max(1, Math.round(30 * Number(process.env.FC_RUNS_SCALE ?? 1)));
const ROUTE_MAX_MS = Number(process.env.FC_ROUTE_MAX_MS ?? 20_000);

/** GET routes without path parameters that answer a list (or a feed of one). */
const LIST_ROUTES = operations.filter(
  (op) =>
    op.methods.includes('GET') && /^\/[a-z/]+$/.test(op.path) && op.query !== undefined && op.path !== '/doc',
);

interface SchemaLike {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  items?: SchemaLike;
  anyOf?: readonly SchemaLike[];
}

/** A query value: text to percent-encode, or a piece sent as written (bytes that are not UTF-8). */
type Value = string | { raw: string };

const DATES = [
  '0001-01-01',
  '0001-01-01 00:00:00',
  '0001-01-01T00:00:00+14:00',
  '0000-12-31',
  '9999-12-31',
  '9999-12-31 23:59:59',
  '9999-12-31T23:59:59-12:00',
  '10000-01-01',
  '-000001-01-01',
  '275760-09-13',
  '9999-13-01',
  '+99999 years',
  '-99999 years',
  '+8000 years',
  '-2100 years',
  '+100000000 days',
  '2147483648',
  '-62135596801',
  '253402300800',
  '99999999999',
  'next monday 25pm',
  'tomorrow',
  'now',
  '2027-01-15',
];

const NUMBERS = [
  '0',
  '-1',
  '1',
  '1.5',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '99999999999999999999',
  '1e21',
  '1e308',
  '-1e308',
  'NaN',
  'Infinity',
  '0x10',
  '',
];

const TEXT = [
  '',
  ' ',
  'jazz',
  'a,b,,c',
  '😀🎉',
  'e\u0301',
  '\u202Eevil',
  'مرحبا',
  '\u0000',
  '\uFEFF',
  '<script>',
  '__proto__',
  'TERM#1',
  '%',
];

/** Percent-encoded bytes: not UTF-8, a lone surrogate, an overlong slash, a bidi override, a NUL. */
const RAW = ['%FF', '%C0%AF', '%ED%A0%80', '%E2%80%AE', '%00', '%F4%90%80%80', '%ZZ', '+'];

const oneOf = <T>(list: readonly T[]) => fc.constantFrom(...list);

/** Values for one parameter: its own kind first (dates, numbers, enums), then anything. */
function valueArb(name: string, schema: SchemaLike | undefined): fc.Arbitrary<Value> {
  const types = [schema?.type ?? [], ...(schema?.anyOf ?? []).map((s) => s.type ?? [])].flat();
  const own: Array<fc.Arbitrary<Value>> = [];
  if (/date|before|after|since/.test(name)) own.push(oneOf(DATES));
  if (types.includes('integer') || types.includes('number') || /page|limit|radius|lat|lng/.test(name))
    own.push(oneOf(NUMBERS), fc.integer().map(String), fc.double({ noNaN: true }).map(String));
  if (schema?.enum) own.push(oneOf(schema.enum.map(String)));
  if (types.includes('boolean')) own.push(oneOf(['true', 'false', '1', '0', 'yes', '']));
  const any: Array<fc.Arbitrary<Value>> = [
    oneOf(TEXT),
    oneOf(RAW).map((raw) => ({ raw })),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.tuple(oneOf(['x', 'é', '😀', '1,']), oneOf([500, 3000])).map(([unit, n]) => unit.repeat(n)),
    oneOf([...DATES, ...NUMBERS]),
  ];
  return own.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...own) }, fc.oneof(...any))
    : fc.oneof(...any);
}

type Request = { params: Array<[string, Value]>; asEditor: boolean };

/** The ends of the calendar and just past them, as every date parameter may name them. */
const EDGES = [
  '0001-01-01',
  '0001-01-01 00:00:00',
  '9999-12-31',
  '9999-12-31 23:59:59',
  '0000-12-31',
  '+99999 years',
];
const DATE_PARAM = /date|before|after/;

/**
 * One request: some of the route's parameters (a name may repeat, as arrays are sent), maybe as an
 * editor. A third of them name only dates, so that windows at the calendar's ends reach the tallies.
 */
function requestArb(op: Operation): fc.Arbitrary<Request> {
  const properties = (op.query as { properties?: Record<string, SchemaLike> }).properties ?? {};
  const param = fc.oneof(
    ...Object.entries(properties).map(([name, schema]) =>
      fc.tuple(fc.constant(name), valueArb(name, schema)),
    ),
  );
  const general = fc.array(param, { minLength: 1, maxLength: 4 });
  const dateNames = Object.keys(properties).filter((n) => DATE_PARAM.test(n));
  if (dateNames.length === 0) return fc.record({ params: general, asEditor: fc.boolean() });
  const date = fc.tuple(fc.constantFrom(...dateNames), fc.oneof(oneOf(EDGES), oneOf(DATES)));
  const dated = fc
    .tuple(fc.array(date, { minLength: 1, maxLength: 2 }), fc.boolean())
    .map(([dates, strict]): Array<[string, Value]> =>
      strict ? [...dates, ['strict_dates', 'true']] : dates,
    );
  return fc.record({ params: fc.oneof({ weight: 2, arbitrary: general }, dated), asEditor: fc.boolean() });
}

/**
 * Requests every run starts with: each date parameter at each end of the calendar, in both modes, and
 * pages whose `page × per_page` overflows 32 bits.
 */
function edgeExamples(op: Operation): Array<[Request]> {
  const names = Object.keys((op.query as { properties?: Record<string, unknown> }).properties ?? {});
  const out: Request[] = [];
  for (const name of names.filter((n) => DATE_PARAM.test(n)))
    for (const value of EDGES.slice(0, 4))
      for (const strict of [false, true])
        out.push({
          params: [[name, value], ...(strict ? [['strict_dates', 'true'] as [string, Value]] : [])],
          asEditor: false,
        });
  if (names.includes('page'))
    for (const [page, perPage] of [
      ['99999999', '100'],
      ['214748365', '10'],
      ['2147483648', '1'],
    ] as const)
      out.push({
        params: [
          ['page', page],
          ['per_page', perPage],
        ],
        asEditor: true,
      });
  return out.map((r) => [r]);
}

const encode = (v: Value) => (typeof v === 'string' ? encodeURIComponent(v) : v.raw);

async function exercise(op: Operation, r: Request) {
  const query = r.params.map(([name, v]) => `${name}=${encode(v)}`).join('&');
  const root = op.namespace ? `${api.origin}/${op.namespace}` : api.base;
  const res = await fetch(`${root}${op.path}?${query}`, {
    headers: r.asEditor ? { authorization: `Bearer ${editor}` } : {},
  });
  const text = await res.text();
  const shown = `GET ${op.path}?${query.slice(0, 600)} → ${res.status} ${text.slice(0, 400)}`;
  expect(res.status, `never a 5xx: ${shown}`).toBeLessThan(500);
  if (res.status === 200 && op.path.endsWith('/ical')) {
    expect(text, shown).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
    return;
  }
  let body: Record<string, any>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${shown}`);
  }
  if (res.status >= 400) {
    expect(body, `the error envelope: ${shown}`).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
      data: { status: res.status },
    });
    expect(text, shown).not.toMatch(/RangeError|TypeError|InternalFailure|ValidationException|\n\s+at /);
  } else if (res.status === 200 && op.path !== '/changes') {
    const key = op.path.slice(1);
    expect(Array.isArray(body[key]), `the list envelope: ${shown}`).toBe(true);
    expect(body, shown).toMatchObject({ total: expect.any(Number), total_pages: expect.any(Number) });
    expect(Number.isSafeInteger(body.total) && body.total >= 0, shown).toBe(true);
  } else if (res.status === 200) expect(Array.isArray(body.changes), shown).toBe(true);
}

beforeAll(async () => {
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await api.post(path, body, { token: editor });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number };
  };
  const category = await post('/categories', { name: 'Jazz' });
  const tag = await post('/tags', { name: 'Late' });
  const venue = await post('/venues', { venue: 'Hall', city: 'Paris', geo_lat: 48.8, geo_lng: 2.3 });
  const organizer = await post('/organizers', { organizer: 'Society' });
  const links = { categories: [category.id], tags: [tag.id], venue: venue.id, organizer: [organizer.id] };
  for (const [start, end] of [
    ['0001-01-01 00:00:00', '0001-01-01 01:00'],
    ['2027-01-15 20:00', '2027-01-15 23:00'],
    ['9999-12-31 22:00', '9999-12-31 23:59:59'],
  ])
    await post('/events', { title: `Night ${start}`, start_date: start, end_date: end, ...links });
});

describe('list routes with arbitrary parameters: never a 5xx, always an envelope, nothing changed', () => {
  it.each(LIST_ROUTES.map((op, i) => [`GET ${op.path}`, op, i] as const))(
    '%s',
    async (_label, op, i) => {
      const before = await fingerprintTable();
      const examples = edgeExamples(op);
      await fc.assert(
        fc.asyncProperty(requestArb(op), (r) => exercise(op, r)),
        {
          seed: SEED + i,
          // The examples count among the runs: RUNS random ones come after them.
          numRuns: examples.length + RUNS,
          examples,
          plugins: [fc.interruptAfterTimeLimit(ROUTE_MAX_MS)],
        },
      );
      const after = await fingerprintTable();
      expect(after.hash, 'a read changed the table').toBe(before.hash);
    },
    ROUTE_MAX_MS + 60_000,
  );
});
