import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE,
  eventType,
  matchesType,
  newSecret,
  outcomeOf,
  PING_TYPE,
  readerOf,
  retryDelayMs,
  WEBHOOK_EVENT_TYPES,
} from '../../shared/domain/webhooks';

/**
 * Webhooks' pure rules (shared/domain/webhooks.ts): event types and their wildcards, the retry
 * schedule and a receiver's answer. test/integration/webhooks-api.test.ts and webhooks-delivery.test.ts
 * keep proving them through HTTP with a real receiver.
 */

describe('event types', () => {
  it('names each resource and action in the singular', () => {
    expect([
      eventType('events', 'created'),
      eventType('categories', 'removed'),
      eventType('attendees', 'restored'),
    ]).toEqual(['event.created', 'category.removed', 'attendee.restored']);
  });

  it('lists *, each resource.* and each resource.action a subscription may name', () => {
    expect(WEBHOOK_EVENT_TYPES[0]).toBe('*');
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(1 + 7 * 5);
    expect(WEBHOOK_EVENT_TYPES).toEqual(
      expect.arrayContaining(['event.*', 'event.updated', 'venue.restored', 'ticket.created', 'attendee.*']),
    );
    expect(WEBHOOK_EVENT_TYPES).not.toContain(PING_TYPE);
  });
});

describe('matchesType', () => {
  const subscription = ['event.*', 'venue.updated'];

  it('takes an exact type and every action of a resource.*', () => {
    expect(
      ['event.created', 'event.removed', 'venue.updated'].map((t) => matchesType(subscription, t)),
    ).toEqual([true, true, true]);
  });

  it('leaves the other actions and resources out', () => {
    expect(
      ['venue.created', 'organizer.updated', 'tag.removed'].map((t) => matchesType(subscription, t)),
    ).toEqual([false, false, false]);
  });

  it('takes everything with *', () => {
    expect(matchesType(['*'], 'attendee.restored')).toBe(true);
  });

  it('matches no type with an empty list', () => {
    expect(matchesType([], 'event.created')).toBe(false);
  });
});

describe('readerOf', () => {
  it('reads a public subscription as an anonymous caller, an editor one as an editor', () => {
    expect(readerOf('public')).toBeNull();
    expect(readerOf('editor')).toEqual({ sub: 'webhooks', role: 'editor' });
  });
});

describe('retryDelayMs', () => {
  it('follows the schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (no jitter at 0.5)', () => {
    const delays = DEFAULT_RETRY_SCHEDULE.map((_, n) => retryDelayMs(n, DEFAULT_RETRY_SCHEDULE, () => 0.5));

    expect(delays).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('spreads each delay by 10 % either way', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 1)).toBe(5_500);
  });

  it('gives no delay once the schedule is used up (eight attempts in all)', () => {
    expect(retryDelayMs(8, DEFAULT_RETRY_SCHEDULE)).toBeUndefined();
    expect(retryDelayMs(1, [0])).toBeUndefined();
  });
});

describe('outcomeOf', () => {
  it('is delivered for any 2xx, gone for 410, a retry for anything else', () => {
    const statuses = [200, 204, 299, 410, 0, 301, 400, 404, 429, 500, 503];

    expect(statuses.map(outcomeOf)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'gone',
      'retry',
      'retry',
      'retry',
      'retry',
      'retry',
      'retry',
      'retry',
    ]);
  });
});

describe('newSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes, new each time', () => {
    const a = newSecret();

    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });
});
