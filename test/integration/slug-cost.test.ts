import { describe, expect, it } from 'vitest';
import { measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';

/**
 * A create's slug reads do not grow with the records named like it: the base's guard and counter are
 * read (shared/repositories/slug-claims.ts), not the slugs of every record with the same name (a
 * weekly event's hundredth create read a hundred of them).
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const event = (title: string) => ({
  title,
  start_date: '2031-03-04 19:00:00',
  end_date: '2031-03-04 21:00:00',
});

describe('creating a name many records already have', () => {
  it('reads as much for the 40th record of a name as for the 3rd', async () => {
    const create = () => api.post('/events', event('Weekly Quiz'), { token: editor });
    const cost: Array<{ items: number; calls: number; slug: string }> = [];
    for (let i = 1; i <= 40; i++) {
      const { result, items, calls } = await measure(create);
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      cost.push({ items, calls: calls.length, slug: String(result.body.slug) });
    }
    expect(cost.map((c) => c.slug)).toEqual([
      'weekly-quiz',
      ...Array.from({ length: 39 }, (_, i) => `weekly-quiz-${i + 2}`),
    ]);
    expect(cost[39]!.items).toBe(cost[2]!.items);
    expect(cost[39]!.calls).toBe(cost[2]!.calls);
  });

  it('draws concurrent creates of one name from its counter, without reading the slugs it names', async () => {
    for (let i = 0; i < 12; i++)
      expect((await api.post('/venues', { venue: 'Busy Bar' }, { token: editor })).status).toBe(201);
    const { result, calls } = await measure(() =>
      Promise.all(
        Array.from({ length: 6 }, () => api.post('/venues', { venue: 'Busy Bar' }, { token: editor })),
      ),
    );
    expect(result.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(result.map((r) => r.body.slug)).size).toBe(6);
    for (const r of result) expect(Number(String(r.body.slug).slice('busy-bar-'.length))).toBeGreaterThan(12);
    expect(calls.filter((c) => c.index === 'bySlug')).toEqual([]);
  });

  it('keeps counting past a suffix deleted for good, and gives the base back once it is free', async () => {
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push((await api.post('/venues', { venue: 'Echo Room' }, { token: editor })).body);
    expect(made.map((v) => v.slug)).toEqual(['echo-room', 'echo-room-2', 'echo-room-3']);
    for (const v of [made[2]!, made[0]!])
      expect((await api.del(`/venues/${v.id}?force=true`, { token: editor })).status).toBe(200);
    const again = await api.post('/venues', { venue: 'Echo Room' }, { token: editor });
    expect(again.body.slug).toBe('echo-room');
    const next = await api.post('/venues', { venue: 'Echo Room' }, { token: editor });
    expect(next.body.slug).toBe('echo-room-4');
  });

  it('goes past a suffix taken by a rename, which the counter does not know', async () => {
    const first = await api.post('/tags', { name: 'Open Mic' }, { token: editor });
    const other = await api.post('/tags', { name: 'Open Mic Night' }, { token: editor });
    expect(first.status).toBe(201);
    expect((await api.post(`/tags/${other.body.id}`, { slug: 'open-mic-2' }, { token: editor })).status).toBe(
      200,
    );
    const next = await api.post('/tags', { name: 'Open mic!' }, { token: editor });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body.slug).toBe('open-mic-3');
  });
});
