import { DateTime } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import { apiClient } from '../../import-export/src';
import { seedSeries } from '../../scripts/seed-series';
import { finishJournal } from '../../shared/services/series';
import { useStack } from '../support/use-stack';

/** `npm run seed`'s recurring events (scripts/seed-series.ts), through the typed client and the API. */
const {
  api,
  tokens: { admin },
} = await useStack({ tokens: { admin: 'administrator' } });

vi.setConfig({ testTimeout: 240_000 });

describe('seedSeries', () => {
  it('adds a weekly class, a monthly last-Friday meetup and a week-long festival with a day cancelled and one moved', async () => {
    const client = apiClient(api.base, admin);
    const seeded = await seedSeries(
      client,
      { categories: new Map() },
      DateTime.fromISO('2026-12-01', { zone: 'utc' }),
    );
    // What a request left in a journal, finished as the extend job would.
    for (const s of seeded) await finishJournal(s.seriesId, Number.POSITIVE_INFINITY);
    const list = async (id: number, status = 'publish') =>
      (
        await api.get(
          `/events?series=${id}&status=${status}&start_date=2020-01-01&end_date=2035-12-31&per_page=50`,
          { token: admin },
        )
      ).body.events as Array<{
        title: string;
        start_date: string;
        is_exception: boolean;
      }>;
    const [pottery, meetup, festival] = seeded;

    const classes = await list(pottery!.seriesId);
    expect(classes).toHaveLength(26);
    expect(classes.every((e) => DateTime.fromSQL(e.start_date).weekday === 2)).toBe(true);
    const meetups = await list(meetup!.seriesId);
    expect(meetups).toHaveLength(12);
    for (const e of meetups) {
      const day = DateTime.fromSQL(e.start_date);
      expect(day.weekday).toBe(5);
      expect(day.plus({ weeks: 1 }).month).not.toBe(day.month);
    }
    const days = await list(festival!.seriesId);
    expect(days).toHaveLength(6);
    expect(days.filter((e) => e.is_exception).map((e) => e.title)).toEqual([
      'Harbour Festival (late opening)',
    ]);
    expect(await list(festival!.seriesId, 'trash')).toHaveLength(1);
  });
});
