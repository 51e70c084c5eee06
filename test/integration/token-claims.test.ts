import { createHmac } from 'node:crypto';
import { type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ISSUER } from '../../shared/http/auth';
import { useStack } from '../support/use-stack';

/**
 * Bearer tokens through HTTP: every token that is not a well-formed, validly signed token of the local
 * issuer with well-formed claims is a 401 `rest_invalid_token` envelope on reads and writes alike, never a
 * 500; claims of the right shape but naming no role grant a subscriber's rights and nothing more.
 */
const {
  api,
  tokens: { editor, subscriber },
} = await useStack({ tokens: { editor: 'editor', subscriber: 'subscriber' } });

const secret = () => new TextEncoder().encode(process.env.AUTH_LOCAL_SECRET!);
const now = () => Math.floor(Date.now() / 1000);
const b64url = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

interface SignOptions {
  issuer?: string;
  sub?: string | null;
  exp?: number;
  nbf?: number;
}

/** A token signed with the local secret like the local issuer's, with whatever claims the test needs. */
async function sign(claims: JWTPayload, o: SignOptions = {}): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(o.issuer ?? LOCAL_ISSUER)
    .setIssuedAt()
    .setExpirationTime(o.exp ?? now() + 3600);
  if (o.sub !== null) jwt.setSubject(o.sub ?? 'user-claims');
  if (o.nbf !== undefined) jwt.setNotBefore(o.nbf);
  return jwt.sign(secret());
}

/** A correctly HS256-signed JWS whose payload segment is exactly `payload` (JSON or not). */
function signRaw(payload: string, header: unknown = { alg: 'HS256', typ: 'JWT' }): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signature = createHmac('sha256', process.env.AUTH_LOCAL_SECRET!).update(input).digest('base64url');
  return `${input}.${signature}`;
}

const claims = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    iss: LOCAL_ISSUER,
    sub: 'user-claims',
    exp: now() + 3600,
    'cal:role': 'editor',
    ...extra,
  });

/** Flips one character in the middle of the signature segment. */
function tamperSignature(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const i = Math.floor(s.length / 2);
  return `${h}.${p}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
}

const BAD_TOKENS: Array<[name: string, header: () => Promise<string>]> = [
  ['an expired token', async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { exp: now() - 60 })}`],
  [
    'a token not valid yet (nbf in the future)',
    async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { nbf: now() + 3600, exp: now() + 7200 })}`,
  ],
  [
    'a token of another issuer',
    async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { issuer: 'evil' })}`,
  ],
  [
    'an unsigned token (alg none)',
    async () => `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`,
  ],
  [
    'a token claiming HS256 without a signature',
    async () => `Bearer ${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims())}.`,
  ],
  [
    'a token with a tampered signature',
    async () => `Bearer ${tamperSignature(await sign({ 'cal:role': 'editor' }))}`,
  ],
  [
    'a token whose payload was changed after signing',
    async () => {
      const [h, , s] = (await sign({ 'cal:role': 'subscriber' })).split('.');
      return `Bearer ${h}.${b64url(claims({ 'cal:role': 'administrator' }))}.${s}`;
    },
  ],
  ['a token of one part', async () => 'Bearer abcdef'],
  ['a token of two parts', async () => `Bearer ${b64url({ alg: 'HS256' })}.${b64url(claims())}`],
  ['a token of four parts', async () => `Bearer ${signRaw(claims())}.extra`],
  ['a token of bad base64', async () => 'Bearer !!!.@@@.###'],
  ['a token whose header is not JSON', async () => `Bearer ${b64url('not json')}.${b64url(claims())}.abc`],
  ['a correctly signed token whose payload is not JSON', async () => `Bearer ${signRaw('not json')}`],
  ['a correctly signed token whose payload is a JSON array', async () => `Bearer ${signRaw('[1,2,3]')}`],
  ['a correctly signed token whose payload is a JSON string', async () => `Bearer ${signRaw('"editor"')}`],
  ['a correctly signed token whose payload is JSON null', async () => `Bearer ${signRaw('null')}`],
  ['a token without a subject', async () => `Bearer ${await sign({ 'cal:role': 'editor' }, { sub: null })}`],
  ['a token whose subject is a number', async () => `Bearer ${signRaw(claims({ sub: 42 }))}`],
  ['a token whose cognito:groups is a number', async () => `Bearer ${await sign({ 'cognito:groups': 5 })}`],
  [
    'a token whose cognito:groups is an object',
    async () => `Bearer ${await sign({ 'cognito:groups': { editor: true } })}`,
  ],
  [
    'a token whose cognito:groups holds a non-string',
    async () => `Bearer ${await sign({ 'cognito:groups': ['editor', 1] })}`,
  ],
  ['a token whose cal:role is a number', async () => `Bearer ${await sign({ 'cal:role': 3 })}`],
  ['a token whose cal:role is an array', async () => `Bearer ${await sign({ 'cal:role': ['editor'] })}`],
  ['an Authorization header of another scheme', async () => `Basic ${Buffer.from('a:b').toString('base64')}`],
  ['a Bearer header without a token', async () => 'Bearer'],
];

let categoryCount: number;
beforeAll(async () => {
  await api.post('/categories', { name: 'Before Tokens' }, { token: editor });
  categoryCount = (await api.get('/categories?hide_empty=false')).body.length;
});

/** The 401 envelope with the API's headers, and nothing of the verifier's internals. */
function expectInvalidToken(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    code: 'rest_invalid_token',
    message: expect.stringMatching(/^The bearer token is not valid: .+\.$/),
    data: { status: 401 },
  });
  expect(res.body.message).not.toMatch(/ERR_|Error|undefined|\n|\.ts:\d/);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('x-cal-api-version')).toBe('v1');
}

describe.each(BAD_TOKENS)('%s', (_name, header) => {
  it('is refused on a write with 401 rest_invalid_token, and nothing is written', async () => {
    const res = await api.post(
      '/categories',
      { name: `Bad Token ${Math.random()}` },
      { headers: { authorization: await header() } },
    );

    expectInvalidToken(res);
    expect((await api.get('/categories?hide_empty=false')).body.length).toBe(categoryCount);
  });

  it('is refused on a read with 401 rest_invalid_token', async () => {
    const res = await api.get('/categories', { headers: { authorization: await header() } });

    expectInvalidToken(res);
  });
});

describe('tokens that authenticate', () => {
  it('a write without a token is 401 rest_forbidden', async () => {
    const res = await api.post('/categories', { name: 'Anonymous' });

    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401 },
    });
    expect(res.headers.get('x-cal-api-version')).toBe('v1');
  });

  it('a read without a token is answered', async () => {
    const res = await api.get('/categories');

    expect(res.status).toBe(200);
  });

  it('cognito:groups as a single string names one group', async () => {
    const token = await sign({ 'cognito:groups': 'editor' });

    const res = await api.post('/categories', { name: 'Group As String' }, { token });

    expect(res.status).toBe(201);
  });

  it.each([
    ['an unknown cal:role', { 'cal:role': 'superuser' }],
    ['unknown groups', { 'cognito:groups': ['root', 'eu-west-1_pool_Google'] }],
    ['an unknown group as a string', { 'cognito:groups': 'root' }],
  ])('%s grants what a subscriber has and nothing more', async (_name, roleClaims) => {
    const token = await sign(roleClaims);
    const writes = [
      (t: string) => api.post('/categories', { name: 'Unknown Role Category' }, { token: t }),
      (t: string) => api.post('/tags', { name: 'Unknown Role Tag' }, { token: t }),
      (t: string) => api.post('/venues', { venue: 'Unknown Role Venue' }, { token: t }),
      (t: string) =>
        api.post(
          '/events',
          { title: 'Unknown Role Event', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' },
          { token: t },
        ),
    ];

    for (const write of writes) {
      const [asUnknown, asSubscriber] = [await write(token), await write(subscriber)];
      expect(asUnknown.status).toBe(403);
      expect(asUnknown.status).toBe(asSubscriber.status);
      expect(asUnknown.body.code).toBe(asSubscriber.body.code);
    }
    const read = await api.get('/categories?hide_empty=false', { token });
    expect(read.status).toBe(200);
    expect(read.body.length).toBe(categoryCount);
  });
});
