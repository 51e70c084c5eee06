import { describe, expect, it } from 'vitest';
import {
  actionFor,
  type ChangeState,
  decodeCursor,
  encodeCursor,
  inView,
  oldestPosition,
  positionAt,
  TERM_STATE,
} from '../../shared/domain/changes';
import { DomainError } from '../../shared/domain/errors';
import type { User } from '../../shared/domain/roles';
import { nextPosition } from '../../shared/repositories/changes';

const editor: User = { sub: 'ed', role: 'editor' };
const owner: User = { sub: 'alice', role: 'contributor' };
const stranger: User = { sub: 'bob', role: 'author' };
const subscriber: User = { sub: 'sue', role: 'subscriber' };

const state = (status: string, extra: Partial<ChangeState> = {}): ChangeState => ({
  status,
  author: 'alice',
  ...extra,
});

describe('the caller’s view (what its lists show by default)', () => {
  it.each([
    ['publish', [true, true, true, true, true]],
    ['draft', [false, false, true, false, true]],
    ['pending', [false, false, true, false, true]],
    ['private', [false, false, true, false, true]],
    ['future', [false, false, true, false, true]],
    ['trash', [false, false, false, false, false]],
  ])('%s: anonymous, subscriber, its author, another author, an editor', (status, expected) => {
    const s = state(status);
    expect([null, subscriber, owner, stranger, editor].map((u) => inView(s, u))).toEqual(expected);
  });

  it('an event hidden from listings is in nobody’s view; terms are in everybody’s', () => {
    for (const u of [null, owner, editor]) {
      expect(inView(state('publish', { hidden: true }), u)).toBe(false);
      expect(inView(TERM_STATE, u)).toBe(true);
      expect(inView(undefined, u)).toBe(false);
    }
  });
});

describe('the action a caller sees', () => {
  const cases: Array<
    [string, ChangeState | undefined, ChangeState | undefined, User | null, string | undefined]
  > = [
    ['a published create', undefined, state('publish'), null, 'created'],
    ['a draft create, anonymous', undefined, state('draft'), null, undefined],
    ['a draft create, its author', undefined, state('draft'), owner, 'created'],
    ['publishing a draft', state('draft'), state('publish'), null, 'created'],
    ['an edit', state('publish'), state('publish'), null, 'updated'],
    ['unpublishing', state('publish'), state('draft'), null, 'removed'],
    ['unpublishing, editor', state('publish'), state('draft'), editor, 'updated'],
    ['trashing', state('publish'), state('trash'), editor, 'removed'],
    ['restoring', state('trash'), state('publish'), null, 'restored'],
    ['restoring to draft, anonymous', state('trash'), state('draft'), null, undefined],
    ['deleting', state('publish'), undefined, null, 'removed'],
    ['deleting from the trash', state('trash'), undefined, editor, undefined],
    ['hiding', state('publish'), state('publish', { hidden: true }), null, 'removed'],
    ['unhiding', state('publish', { hidden: true }), state('publish'), null, 'created'],
    ['reassigning a draft', state('draft'), state('draft', { author: 'bob' }), owner, 'removed'],
    ['a term delete', TERM_STATE, undefined, null, 'removed'],
  ];
  it.each(cases)('%s', (_name, before, after, user, action) => {
    expect(actionFor({ before, after }, user)).toBe(action);
  });
});

describe('cursors', () => {
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  const bad = (cursor: string) => {
    try {
      decodeCursor(cursor, now);
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      const details = (e as DomainError).data.details as Record<string, { code: string; message: string }>;
      expect(details.since!.code).toBe('rest_invalid_cursor');
      return details.since!.message;
    }
    throw new Error(`${cursor} was accepted`);
  };

  it('round-trip an entry’s position and a bare point in time', () => {
    for (const p of ['2026-11-20T10:00:00.123Z#0a1b2c3d#000042', '2026-11-22T00:00:00.000Z'])
      expect(decodeCursor(encodeCursor(p), now)).toBe(p);
    expect(encodeCursor('2026-11-22T00:00:00.000Z')).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuse what is not a cursor, saying how to start over', () => {
    for (const c of [
      '',
      'x',
      '!!',
      'MQ',
      encodeCursor('yesterday'),
      encodeCursor('2026-11-20T10:00:00.123Z#zz'),
    ])
      expect(bad(c)).toMatch(/not a cursor.*Start over without since/);
    expect(bad(Buffer.from('2026-11-20T10:00:00.123Z').toString('base64url'))).toMatch(/not a cursor/);
  });

  it('expire 35 days after the point they mark, and are fine until then', () => {
    const day = 24 * 3600 * 1000;
    expect(decodeCursor(encodeCursor(positionAt(now - 34.9 * day)), now)).toBeTruthy();
    expect(bad(encodeCursor(positionAt(now - 35.1 * day)))).toMatch(/expired.*35 days/);
    expect(oldestPosition(now)).toBe(positionAt(now - 35 * day));
  });

  it('from the future are not ours', () => {
    expect(bad(encodeCursor(positionAt(now + 3600_000)))).toMatch(/not a cursor/);
  });
});

describe('positions', () => {
  it('increase within a process, even in one millisecond or when the clock steps back', () => {
    const at = Date.parse('2026-11-23T12:00:00.000Z') + 10 * 365 * 24 * 3600 * 1000;
    const ps = [nextPosition(at), nextPosition(at), nextPosition(at - 5000), nextPosition(at + 1)];
    expect([...ps].sort()).toEqual(ps);
    expect(new Set(ps).size).toBe(4);
    expect(ps[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f]{8}#\d{6}$/);
  });
});
