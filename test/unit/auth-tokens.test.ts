import { type JWTPayload, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/errors';
import { authenticate, LOCAL_ISSUER } from '../../shared/http/auth';

/**
 * authenticate() on its own: the claims a validly signed token may carry (roles, subject, audience) and
 * the settings only a deployment has (AUTH_AUDIENCE), which the HTTP tests cannot switch per test.
 */

const secret = () => new TextEncoder().encode(process.env.AUTH_LOCAL_SECRET!);

async function sign(claims: JWTPayload, o: { sub?: string | null; audience?: string | string[] } = {}) {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(LOCAL_ISSUER).setIssuedAt();
  if (o.sub !== null) jwt = jwt.setSubject(o.sub ?? 'user-1');
  if (o.audience !== undefined) jwt = jwt.setAudience(o.audience);
  return jwt.setExpirationTime('1h').sign(secret());
}

/** What authenticate() makes of a token: the user, or the code and status of the error it throws. */
async function outcome(token: string) {
  try {
    return { user: await authenticate(`Bearer ${token}`) };
  } catch (e) {
    if (!(e instanceof ApiError)) return { crash: (e as Error).constructor.name };
    return { status: e.status, code: e.code, message: e.message };
  }
}

const INVALID = { status: 401, code: 'rest_invalid_token' };

describe('roles from a validly signed token', () => {
  it.each([
    ['cognito:groups as an array of role names', { 'cognito:groups': ['author', 'editor'] }, 'editor'],
    ['cognito:groups naming one group as a string', { 'cognito:groups': 'editor' }, 'editor'],
    [
      'cognito:groups with groups that are no role',
      { 'cognito:groups': ['eu-west-1_x_Google'] },
      'subscriber',
    ],
    ['an empty cognito:groups', { 'cognito:groups': [] }, 'subscriber'],
    ['cal:role', { 'cal:role': 'author' }, 'author'],
    [
      'the higher of cal:role and cognito:groups',
      { 'cal:role': 'author', 'cognito:groups': ['editor'] },
      'editor',
    ],
    ['an unknown cal:role', { 'cal:role': 'superuser' }, 'subscriber'],
    ['an unknown group name', { 'cognito:groups': 'root' }, 'subscriber'],
    ['no role claim', {}, 'subscriber'],
  ])('%s', async (_name, claims, role) => {
    const result = await outcome(await sign(claims));

    expect(result).toEqual({ user: { sub: 'user-1', role } });
  });

  it.each([
    ['cognito:groups as a number', { 'cognito:groups': 5 }],
    ['cognito:groups as an object', { 'cognito:groups': { editor: true } }],
    ['cognito:groups as null', { 'cognito:groups': null }],
    ['cognito:groups as a boolean', { 'cognito:groups': true }],
    ['cognito:groups with a non-string entry', { 'cognito:groups': ['editor', 7] }],
    ['cognito:groups with a nested array', { 'cognito:groups': [['editor']] }],
    ['cal:role as a number', { 'cal:role': 3 }],
    ['cal:role as an array', { 'cal:role': ['editor'] }],
    ['cal:role as an object', { 'cal:role': { name: 'editor' } }],
  ])('%s is a malformed token: 401 rest_invalid_token', async (_name, claims) => {
    const result = await outcome(await sign(claims));

    expect(result).toMatchObject(INVALID);
  });
});

describe('the subject', () => {
  it.each([
    ['missing', { 'cal:role': 'editor' }, null],
    ['empty', { 'cal:role': 'editor' }, ''],
  ])('%s: 401 rest_invalid_token', async (_name, claims, sub) => {
    const result = await outcome(await sign(claims, { sub }));

    expect(result).toMatchObject(INVALID);
  });

  it('not a string: 401 rest_invalid_token', async () => {
    const token = await sign({ 'cal:role': 'editor', sub: 42 } as unknown as JWTPayload, { sub: null });

    const result = await outcome(token);

    expect(result).toMatchObject(INVALID);
  });
});

describe('validity window and issuer', () => {
  it('an expired token says it has expired', async () => {
    const token = await new SignJWT({ 'cal:role': 'editor' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(LOCAL_ISSUER)
      .setSubject('user-1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret());

    const result = await outcome(token);

    expect(result).toMatchObject({ ...INVALID, message: 'The bearer token is not valid: it has expired.' });
  });

  it('a token not valid yet says so (not "another issuer")', async () => {
    const token = await new SignJWT({ 'cal:role': 'editor' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(LOCAL_ISSUER)
      .setSubject('user-1')
      .setNotBefore('1h')
      .setExpirationTime('2h')
      .sign(secret());

    const result = await outcome(token);

    expect(result).toMatchObject({
      ...INVALID,
      message: 'The bearer token is not valid: it is not valid yet.',
    });
  });

  it('another issuer says so', async () => {
    const token = await new SignJWT({ 'cal:role': 'editor' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('someone-else')
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(secret());

    const result = await outcome(token);

    expect(result).toMatchObject({
      ...INVALID,
      message: 'The bearer token is not valid: it was issued by another issuer.',
    });
  });
});

describe('the audience (only checked when AUTH_AUDIENCE is set)', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.AUTH_AUDIENCE;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.AUTH_AUDIENCE;
    else process.env.AUTH_AUDIENCE = saved;
  });

  it('is not checked without AUTH_AUDIENCE', async () => {
    delete process.env.AUTH_AUDIENCE;
    const token = await sign({ 'cal:role': 'editor' }, { audience: 'another-client' });

    const result = await outcome(token);

    expect(result).toEqual({ user: { sub: 'user-1', role: 'editor' } });
  });

  it.each([
    ['aud is the configured client', { audience: 'client-1' }],
    ['aud is a list holding the configured client', { audience: ['other', 'client-1'] }],
  ])('accepts a token whose %s', async (_name, o) => {
    process.env.AUTH_AUDIENCE = 'client-1';
    const token = await sign({ 'cal:role': 'editor' }, o);

    const result = await outcome(token);

    expect(result).toEqual({ user: { sub: 'user-1', role: 'editor' } });
  });

  it('accepts a Cognito access token whose client_id is the configured client', async () => {
    process.env.AUTH_AUDIENCE = 'client-1';
    const token = await sign({ 'cal:role': 'editor', client_id: 'client-1' });

    const result = await outcome(token);

    expect(result).toEqual({ user: { sub: 'user-1', role: 'editor' } });
  });

  it.each([
    ['another audience', { audience: 'client-2' }, {}],
    ['a list of other audiences', { audience: ['client-2', 'client-3'] }, {}],
    ['no audience at all', {}, {}],
    ['another client_id', {}, { client_id: 'client-2' }],
  ])('rejects a token with %s: 401 rest_invalid_token', async (_name, o, claims) => {
    process.env.AUTH_AUDIENCE = 'client-1';
    const token = await sign({ 'cal:role': 'editor', ...claims }, o);

    const result = await outcome(token);

    expect(result).toMatchObject({
      ...INVALID,
      message: 'The bearer token is not valid: it was issued for another audience.',
    });
  });

  // The deployed stack trusts two clients of its pool: the API's and the calendar page's (infra/site.ts).
  it.each([
    ['aud is the second of the listed clients', { audience: 'web-client' }, {}],
    ['client_id is the first of the listed clients', {}, { client_id: 'api-client' }],
  ])('accepts a token whose %s (AUTH_AUDIENCE is a comma-separated list)', async (_name, o, claims) => {
    process.env.AUTH_AUDIENCE = 'api-client,web-client';
    const token = await sign({ 'cal:role': 'editor', ...claims }, o);

    expect(await outcome(token)).toEqual({ user: { sub: 'user-1', role: 'editor' } });
  });

  it('rejects a token for none of the listed clients, nor for a part of one', async () => {
    process.env.AUTH_AUDIENCE = 'api-client,web-client';
    for (const audience of ['other-client', 'web', 'api-client,web-client']) {
      const token = await sign({ 'cal:role': 'editor' }, { audience });
      expect(await outcome(token)).toMatchObject({
        ...INVALID,
        message: 'The bearer token is not valid: it was issued for another audience.',
      });
    }
  });
});
