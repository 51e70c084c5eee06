import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../shared/db/client';
import { dueJournals } from '../../shared/repositories/series';
import { finishDueSeriesWrites, finishJournal } from '../../shared/services/series';
import { anEvent } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * A series write that outlives its request says so (issue 38, docs/recurrence.md): a create or a
 * scope=all change whose occurrences are not all written when it answers is a 202 with the occurrence
 * written, its Location, and how many are written and pending; the rest is handed to the finisher at
 * once. The table is slowed in the data store client the in-process stack shares.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

vi.setConfig({ testTimeout: 180_000 });
afterEach(() => vi.restoreAllMocks());

/** Holds each transaction that writes `text` for `ms` (a slow or busy table). */
function slowTransactions(text: string, ms: number) {
  const send = ddb.send.bind(ddb);
  vi.spyOn(ddb, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
    const input = (command as { input?: TransactWriteCommandInput }).input;
    if (command instanceof TransactWriteCommand && JSON.stringify(input).includes(text))
      await new Promise((ok) => setTimeout(ok, ms));
    return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as never);
}

const seriesList = (id: number) =>
  api.get(`/events?series=${id}&start_date=2027-01-01&end_date=2028-12-31&per_page=2`);
const total = async (id: number) => (await seriesList(id)).body.total as number;
/** What GET /events?series= says of the series' write: its X-Cal-Series-Pending. */
const listedPending = async (id: number) => (await seriesList(id)).headers.get('x-cal-series-pending');

describe('a series write that outlives its request', () => {
  it('answers 202 with the occurrence, its Location and the written and pending counts', async () => {
    const word = `Accepted${Date.now()}`;
    slowTransactions(word, 1500);
    const res = await api.post(
      '/events',
      anEvent({
        title: word,
        status: 'publish',
        start_date: '2027-03-01 09:00:00',
        end_date: '2027-03-01 10:00:00',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=140'],
      }),
      { token: editor },
    );
    vi.restoreAllMocks();
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.headers.get('location')).toBe(res.body.rest_url);
    expect(res.body).toMatchObject({ title: word, series_id: res.body.id });
    const written = Number(res.headers.get('x-cal-series-written'));
    const pending = Number(res.headers.get('x-cal-series-pending'));
    expect(written).toBeGreaterThanOrEqual(1);
    expect(pending).toBeGreaterThanOrEqual(1);
    expect(written + pending).toBe(140);
    expect(await total(res.body.id)).toBe(written);
    // This request writes no more of it: the finisher may take it up at once.
    expect((await dueJournals(Date.now())).map((j) => j.id)).toContain(res.body.id);
    // The series' list says it is still being written.
    expect(await listedPending(res.body.id)).toBe(String(pending));

    const run = await finishDueSeriesWrites(Date.now());
    expect(run.finished).toBeGreaterThanOrEqual(1);
    expect(await total(res.body.id)).toBe(140);
    expect(await listedPending(res.body.id)).toBe('0');
    const other = (await seriesList(res.body.id)).body.events[1].id as number;

    // A scope=all change of the whole series, slowed again: a 202 too.
    const renamed = `${word}Renamed`;
    slowTransactions(renamed, 1500);
    const all = await api.patch(`/events/${res.body.id}?scope=all`, { title: renamed }, { token: editor });
    vi.restoreAllMocks();
    expect(all.status, JSON.stringify(all.body)).toBe(202);
    expect(all.headers.get('location')).toBe(all.body.rest_url);
    expect(Number(all.headers.get('x-cal-series-pending'))).toBeGreaterThanOrEqual(1);
    // By the first occurrence's ID or another's.
    expect(await listedPending(res.body.id)).toBe(all.headers.get('x-cal-series-pending'));
    expect(await listedPending(other)).toBe(all.headers.get('x-cal-series-pending'));
    await finishJournal(res.body.id, Number.POSITIVE_INFINITY);
    expect(await listedPending(res.body.id)).toBe('0');
    expect(await listedPending(other)).toBe('0');

    // Written within the request: 201 and 200, as before.
    const small = await api.post(
      '/events',
      anEvent({ start_date: '2027-03-01 09:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] }),
      { token: editor },
    );
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    expect(small.headers.get('x-cal-series-pending')).toBeNull();
    expect(await listedPending(small.body.id)).toBe('0');
    // Only a series' list says it: other lists have no such header.
    expect((await api.get('/events?per_page=1')).headers.get('x-cal-series-pending')).toBeNull();
  });
});
