import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../shared/db/client';
import { finishJournal } from '../../shared/services/series';
import { anEvent, type Rec } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * A single event given a rule by an update (issue 27, docs/recurrence.md): it becomes the first
 * occurrence of a new series, as Google Calendar lets a user add a rule to an event.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

// Series writes on a loaded machine: a cold start and a repeat can take a while.
vi.setConfig({ testTimeout: 120_000 });

afterEach(() => vi.restoreAllMocks());

const TIMES = {
  start_date: '2027-03-02 19:00:00',
  end_date: '2027-03-02 21:00:00',
  timezone: 'Europe/Berlin',
};
const WEEKLY_4 = ['RRULE:FREQ=WEEKLY;COUNT=4'];

async function single(title: string): Promise<Rec> {
  const res = await api.post('/events', anEvent({ ...TIMES, title }), { token: editor });
  // A 202: occurrences left to the finisher on a loaded machine (issue 38).
  expect([201, 202], JSON.stringify(res.body)).toContain(res.status);
  return res.body as Rec;
}

async function occurrences(id: number): Promise<Rec[]> {
  const res = await api.get(`/events?series=${id}&start_date=2027-01-01&end_date=2027-12-31&per_page=50`, {
    token: editor,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.events as Rec[];
}

const dates = ['2027-03-02', '2027-03-09', '2027-03-16', '2027-03-23'];

/** The series made from `event`: its ID, slug and title on every occurrence, one per date of the rule. */
async function expectSeriesFrom(event: Rec, title: string): Promise<void> {
  const all = await occurrences(event.id);
  expect(all.map((e) => e.start_date)).toEqual(dates.map((d) => `${d} 19:00:00`));
  expect(all.every((e) => e.series_id === event.id && e.title === title && !e.is_exception)).toBe(true);
  expect(all[0]).toMatchObject({ id: event.id, slug: event.slug, recurrence: WEEKLY_4 });
  expect(all.slice(1).map((e) => e.slug)).toEqual(dates.slice(1).map((d) => `${event.slug}-${d}`));
}

describe('a rule given to a single event', () => {
  it('makes it the first occurrence of a new series, without a scope or with scope=all', async () => {
    for (const [path, title] of [
      ['', 'Converted plainly'],
      ['?scope=all', 'Converted with scope all'],
    ] as const) {
      const event = await single(`Single ${title}`);
      const res = await api.patch(
        `/events/${event.id}${path}`,
        { title, recurrence: WEEKLY_4 },
        { token: editor },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        id: event.id,
        slug: event.slug,
        series_id: event.id,
        recurrence: WEEKLY_4,
        occurrence_start: '2027-03-02 19:00:00',
        is_exception: false,
      });
      await finishJournal(event.id, Number.POSITIVE_INFINITY);
      await expectSeriesFrom(event, title);
    }
  });

  it('refuses scope=this and following with a rule, and an empty rule, and changes nothing', async () => {
    const event = await single('Single kept single');
    for (const scope of ['this', 'following']) {
      const res = await api.patch(
        `/events/${event.id}?scope=${scope}`,
        { recurrence: WEEKLY_4 },
        { token: editor },
      );
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('scope');
    }
    // No rule is no series: an empty or null `recurrence` is refused by the contract, as on create.
    for (const recurrence of [[], null]) {
      const res = await api.patch(`/events/${event.id}`, { recurrence }, { token: editor });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('recurrence');
    }
    expect((await api.get(`/events/${event.id}`, { token: editor })).body).toMatchObject({
      series_id: null,
      recurrence: null,
    });
  });

  it('an interrupted conversion is finished by its repeat', async () => {
    const word = `Convert${Date.now()}`;
    const event = await single(word);
    // The second transaction naming the title: the first of the other occurrences'.
    const send = ddb.send.bind(ddb);
    let seen = 0;
    vi.spyOn(ddb, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      const ours = command instanceof TransactWriteCommand && JSON.stringify(command.input).includes(word);
      if (ours && ++seen === 2)
        throw Object.assign(new Error('injected failure'), { name: 'InjectedFailure' });
      return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as never);
    const body = { recurrence: WEEKLY_4 };
    const failed = await api.patch(`/events/${event.id}`, body, { token: editor });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    vi.restoreAllMocks();
    expect((await occurrences(event.id)).length).toBeLessThan(4);

    const repeat = await api.patch(`/events/${event.id}`, body, { token: editor });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    expect(repeat.body).toMatchObject({ id: event.id, series_id: event.id, is_exception: false });
    await finishJournal(event.id, Number.POSITIVE_INFINITY);
    await expectSeriesFrom(event, word);
  });
});
