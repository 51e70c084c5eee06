import { describe, expect, it } from 'vitest';
import { accountLabel, accountOf, managesAttendees, pastedToken } from '../../web/src/account-claims';

/** Who is signed in, read from the token by the page's account module only (web/src/account-claims.ts). */
const jwt = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;

describe('accountOf', () => {
  it('is no one without a token', () => {
    expect(accountOf(null)).toBeNull();
    expect(accountOf('')).toBeNull();
  });

  it('takes the role from cal:role, else the first Cognito group, and the subject', () => {
    expect(accountOf(jwt({ 'cal:role': 'editor', sub: 'ann' }))).toEqual({ role: 'editor', sub: 'ann' });
    expect(accountOf(jwt({ 'cognito:groups': ['admin', 'editor'], sub: 'bo' }))).toEqual({
      role: 'admin',
      sub: 'bo',
    });
    expect(accountOf(jwt({ 'cal:role': 'author', 'cognito:groups': ['admin'] }))).toEqual({ role: 'author' });
  });

  it('reads base64url payloads (- and _)', () => {
    // "??>" encodes to "Pz8-" and "???" to "Pz8_" in base64url.
    const t = jwt({ sub: '??>???' });
    expect(t).toMatch(/[-_]/);
    expect(accountOf(t)).toEqual({ sub: '??>???' });
  });

  it('is someone without labels when the payload cannot be read', () => {
    expect(accountOf('not-a-token')).toEqual({});
    expect(accountOf('a.%%%.c')).toEqual({});
  });
});

describe('accountLabel', () => {
  it('says who is signed in, with what it knows', () => {
    expect(accountLabel(null)).toBe('Not signed in');
    expect(accountLabel({})).toBe('Signed in');
    expect(accountLabel({ role: 'editor' })).toBe('Signed in as editor');
    expect(accountLabel({ role: 'editor', sub: 'ann' })).toBe('Signed in as editor (ann)');
    expect(accountLabel({ sub: 'ann' })).toBe('Signed in (ann)');
  });
});

describe('pastedToken', () => {
  it('takes three dotted parts, trimmed, with or without Bearer', () => {
    expect(pastedToken(' a.b.c \n')).toBe('a.b.c');
    expect(pastedToken('Bearer a.b.c')).toBe('a.b.c');
    expect(pastedToken('bearer   a.b.c')).toBe('a.b.c');
  });

  it('refuses anything else', () => {
    expect(pastedToken('a.b')).toBeNull();
    expect(pastedToken('a.b.c.d')).toBeNull();
    expect(pastedToken('')).toBeNull();
  });
});

describe('managesAttendees', () => {
  it('is editors and administrators for any event, as the API decides', () => {
    expect(managesAttendees({ role: 'editor', sub: 'ann' }, 'bo')).toBe(true);
    expect(managesAttendees({ role: 'administrator' }, undefined)).toBe(true);
  });

  it("is the event's own author from contributor up, nobody else", () => {
    expect(managesAttendees({ role: 'author', sub: 'bo' }, 'bo')).toBe(true);
    expect(managesAttendees({ role: 'contributor', sub: 'bo' }, 'bo')).toBe(true);
    expect(managesAttendees({ role: 'author', sub: 'ann' }, 'bo')).toBe(false);
    expect(managesAttendees({ role: 'subscriber', sub: 'bo' }, 'bo')).toBe(false);
    expect(managesAttendees({ role: 'author' }, undefined)).toBe(false);
    expect(managesAttendees({}, 'bo')).toBe(false);
    expect(managesAttendees(null, 'bo')).toBe(false);
  });
});
