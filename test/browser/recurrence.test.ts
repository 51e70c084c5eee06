import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { finishJournal } from '../../shared/services/series';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';
import {
  eventTitles as titles,
  launch,
  openCalendar,
  screenshot,
  seriousViolations,
  skipBrowser,
} from './browser';

/**
 * Recurring events on the calendar page (issue 27, docs/recurrence.md "Calendar page"): an occurrence's
 * detail names its rule and links to the series' own list; the editor's repeat control creates a
 * series; saving or trashing an occurrence asks which of its events, and sends that `scope`.
 * The viewer is in Berlin, as the series are: March 2027, within the 24-month horizon of series written
 * in late 2026 (a series is written up to its COUNT whatever today is).
 */
// Series writes and a browser on a loaded machine: a cold start can take a while.
vi.setConfig({ testTimeout: 120_000 });

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

interface Listed {
  id: number;
  title: string;
  start_date: string;
  status: string;
  series_id: number | null;
  is_exception: boolean;
  recurrence: string[] | null;
  recurrence_text: string | null;
}

let browser: Browser;
const contexts: BrowserContext[] = [];
let yoga: Listed[];
let single: number;

/** Creates an event through the API, repeating a 503 rest_timeout with the same Idempotency-Key. */
async function created(body: Record<string, unknown>): Promise<Listed> {
  const headers = { 'idempotency-key': randomUUID() };
  const sent = { status: 'publish', ...body };
  let res = await api.post('/events', sent, { token: tokens.editor, headers });
  for (let n = 0; n < 3 && res.status === 503; n++)
    res = await api.post('/events', sent, { token: tokens.editor, headers });
  if (res.status !== 201) throw new Error(`seed: ${res.status} ${JSON.stringify(res.body)}`);
  // What the request left in the series' journal, finished as the extend job would.
  if (res.body.series_id) await finishJournal(res.body.series_id, Number.POSITIVE_INFINITY);
  return res.body;
}

/** A series' occurrences as the API lists them (trashed ones too, for an editor). */
async function series(id: number, statuses = 'publish'): Promise<Listed[]> {
  const res = await api.get(
    `/events?series=${id}&status=${statuses}&start_date=2027-01-01&end_date=2028-12-31&per_page=50`,
    { token: tokens.editor },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.events;
}

beforeAll(async () => {
  if (skipBrowser) return;
  [, browser] = await Promise.all([ensureWebBuilt(), launch()]);
  const first = await created({
    title: 'Yoga',
    start_date: '2027-03-02 18:00:00',
    end_date: '2027-03-02 19:00:00',
    timezone: 'Europe/Berlin',
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
  });
  yoga = await series(first.series_id ?? first.id);
  single = (
    await created({
      title: 'Lecture',
      start_date: '2027-03-10 10:00:00',
      end_date: '2027-03-10 11:00:00',
      timezone: 'Europe/Berlin',
    })
  ).id;
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

const open = (path: string, token?: string) =>
  openCalendar(browser, contexts, `${api.origin}${path}`, { token });

const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout });
/** The occurrence of the series on a day of March 2027 in the month view. */
const dayEvent = (page: Page, day: number, title = 'Yoga') =>
  page.locator(`td[data-date="2027-03-${String(day).padStart(2, '0')}"] .fc-event`, { hasText: title });
const MARCH = '/?date=2027-03-01';

/**
 * A weekly series on `day` of March 2027 (Berlin), its occurrence number `cancel` (0-based) cancelled
 * on its own: the occurrences' IDs, in order.
 */
async function seriesWithOneCancelled(title: string, day: number, rule: string, cancel: number) {
  const date = `2027-03-${String(day).padStart(2, '0')}`;
  const first = await created({
    title,
    start_date: `${date} 09:00:00`,
    end_date: `${date} 10:00:00`,
    timezone: 'Europe/Berlin',
    recurrence: [rule],
  });
  const id = first.series_id ?? first.id;
  const all = (await series(id)).map((e) => e.id);
  expect((await api.del(`/events/${all[cancel]}`, { token: tokens.editor })).status).toBe(200);
  return { id, all };
}

/** Trashes the occurrence of `title` on `day` from its detail, answering the question of scope. */
async function trashFromDetail(page: Page, day: number, title: string, scope: 'all' | 'following') {
  await dayEvent(page, day, title).click();
  await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
  await page.check(`#scope-${scope}`);
  await page.click('#scope-ok');
}

describe.skipIf(skipBrowser)('recurring events on the calendar page', () => {
  it("shows an occurrence's rule in words and links to the list of its series", async () => {
    expect(yoga).toHaveLength(6);
    const { page, errors } = await open(MARCH);
    await poll(() => titles(page)).toContain('Lecture');

    await dayEvent(page, 9).click();
    const dialog = page.locator('#detail');
    const rule = dialog.locator('[data-role="recurrence"]');
    await rule.waitFor();
    const text = yoga[1]!.recurrence_text!;
    expect(text).toMatch(/^Every week on Tuesday/);
    expect(await rule.textContent()).toBe(`Repeats ${text.charAt(0).toLowerCase()}${text.slice(1)}`);
    const link = dialog.locator('[data-role="series-link"]');
    expect(await link.getAttribute('href')).toBe(
      `/?view=listYear&date=2027-03-09&series=${yoga[0]!.series_id}`,
    );
    await screenshot(page, 'series-detail');
    expect(await seriousViolations(page)).toEqual([]);

    await link.click();
    await page.waitForURL(/series=/);
    // The series alone, all its dates in the year's list; the single lecture is not in it.
    await poll(() => titles(page)).toEqual(Array(6).fill('Yoga'));
    expect(await page.locator('#f-series').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('creates a series with the repeat control: monthly on the first Wednesday, three times', async () => {
    const { page, errors } = await open(MARCH, tokens.editor);

    await page.click('#new-event');
    await page.fill('#e-title', 'Book Club');
    await page.fill('#e-start', '2027-03-03T19:00');
    await page.fill('#e-end', '2027-03-03T21:00');
    await page.fill('#e-timezone', 'Europe/Berlin');
    await page.selectOption('#e-freq', { label: 'Monthly on the first Wednesday' });
    await page.check('#e-ends-after');
    await page.fill('#e-count', '3');
    await screenshot(page, 'repeat-control', page.locator('#editor'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('#e-save');

    await poll(() => titles(page)).toContain('Book Club');
    const listed = await api.get('/events?search=Book%20Club&start_date=2027-01-01&end_date=2027-12-31');
    expect(listed.body.events.map((e: Listed) => e.start_date)).toEqual([
      '2027-03-03 19:00:00',
      '2027-04-07 19:00:00',
      '2027-05-05 19:00:00',
    ]);
    expect(listed.body.events[0].recurrence).toEqual(['RRULE:FREQ=MONTHLY;BYDAY=1WE;COUNT=3']);
    expect(errors).toEqual([]);
  });

  it('creates a weekly series on chosen days that ends on a date', async () => {
    const { page } = await open(MARCH, tokens.editor);

    await page.click('#new-event');
    await page.fill('#e-title', 'Swim');
    await page.fill('#e-start', '2027-03-01T07:00');
    await page.fill('#e-end', '2027-03-01T08:00');
    await page.fill('#e-timezone', 'Europe/Berlin');
    await page.selectOption('#e-freq', 'weekly');
    await page.check('#e-day-MO');
    await page.check('#e-day-TH');
    await page.check('#e-ends-on');
    await page.fill('#e-until', '2027-03-11');
    await page.click('#e-save');

    await poll(() => titles(page)).toContain('Swim');
    const listed = await api.get('/events?search=Swim&start_date=2027-01-01&end_date=2027-12-31');
    expect(listed.body.events.map((e: Listed) => e.start_date.slice(0, 10))).toEqual([
      '2027-03-01',
      '2027-03-04',
      '2027-03-08',
      '2027-03-11',
    ]);
    expect(listed.body.events[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270311']);
  });

  it('asks which events a save is for: this one, then all of them (the exception keeps its title)', async () => {
    const { page, errors } = await open(MARCH, tokens.editor);

    await dayEvent(page, 16).click();
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();
    await page.fill('#e-title', 'Yoga (hall B)');
    await page.click('#e-save');
    const scope = page.locator('#scope');
    await poll(() => scope.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    expect(await page.locator('#scope-question').textContent()).toBe(
      'Save the changes to which events of “Yoga”?',
    );
    await screenshot(page, 'scope-question', scope);
    expect(await seriousViolations(page)).toEqual([]);
    await page.check('#scope-this');
    await page.click('#scope-ok');

    await poll(() => titles(page)).toContain('Yoga (hall B)');
    let now = await series(yoga[0]!.series_id!);
    expect(now.map((e) => e.title)).toEqual(['Yoga', 'Yoga', 'Yoga (hall B)', 'Yoga', 'Yoga', 'Yoga']);
    expect(now[2]!.is_exception).toBe(true);

    await dayEvent(page, 23).click();
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();
    await page.fill('#e-title', 'Yoga Flow');
    await page.click('#e-save');
    await page.check('#scope-all');
    await page.click('#scope-ok');

    await poll(async () => (await series(yoga[0]!.series_id!)).map((e) => e.title)).toEqual([
      'Yoga Flow',
      'Yoga Flow',
      'Yoga (hall B)',
      'Yoga Flow',
      'Yoga Flow',
      'Yoga Flow',
    ]);
    await poll(() => titles(page)).toContain('Yoga Flow');
    now = await series(yoga[0]!.series_id!);
    expect(now.every((e) => e.series_id === yoga[0]!.series_id)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('undoes the trash of all of a series: every occurrence back, one cancelled before stays cancelled', async () => {
    // Four Thursdays, the third cancelled on its own first.
    const { id, all } = await seriesWithOneCancelled('Pilates', 4, 'RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=4', 2);
    expect(all).toHaveLength(4);
    const { page, errors } = await open(MARCH, tokens.editor);

    await trashFromDetail(page, 4, 'Pilates', 'all');
    await poll(async () => (await series(id)).length).toBe(0);
    const bar = page.locator('#undo-bar');
    expect(await bar.textContent()).toBe("“Pilates” and the series' other events moved to the trash. Undo");

    await bar.getByRole('button', { name: 'Undo' }).click();
    await poll(() => bar.textContent()).toBe(
      '“Pilates” and the series are back (Published); 1 cancelled before stays in the trash.',
    );
    expect((await series(id)).map((e) => e.id)).toEqual([all[0], all[1], all[3]]);
    expect((await series(id, 'trash')).map((e) => e.id)).toEqual([all[2]]);
    await poll(() => dayEvent(page, 4, 'Pilates').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('undoes the trash of this and following events: the split part back, one cancelled before stays cancelled', async () => {
    // Five Fridays, the fourth (March 26) cancelled on its own first.
    const { id, all } = await seriesWithOneCancelled('Spinning', 5, 'RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=5', 3);
    expect(all).toHaveLength(5);
    const { page, errors } = await open(MARCH, tokens.editor);

    await trashFromDetail(page, 19, 'Spinning', 'following');
    // The series ends before March 19; from there on a series of its own, trashed.
    await poll(async () => (await series(id)).map((e) => e.id)).toEqual([all[0], all[1]]);
    await poll(() => dayEvent(page, 19, 'Spinning').count()).toBe(0);
    const bar = page.locator('#undo-bar');
    expect(await bar.textContent()).toBe(
      "“Spinning” and the series' following events moved to the trash. Undo",
    );

    await bar.getByRole('button', { name: 'Undo' }).click();
    await poll(() => bar.textContent()).toBe(
      '“Spinning” and the series are back (Published); 1 cancelled before stays in the trash.',
    );
    // The first two untouched; the split series back but for the day cancelled before.
    expect((await series(id)).map((e) => e.id)).toEqual([all[0], all[1]]);
    const split = await series(all[2]!, 'publish,trash');
    expect(split.map((e) => [e.start_date, e.status])).toEqual([
      ['2027-03-19 09:00:00', 'publish'],
      ['2027-03-26 09:00:00', 'trash'],
      ['2027-04-02 09:00:00', 'publish'],
    ]);
    expect(split.every((e) => e.series_id === all[2])).toBe(true);
    await poll(() => dayEvent(page, 19, 'Spinning').count()).toBe(1);
    expect(await dayEvent(page, 26, 'Spinning').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('asks which events a trash is for: cancel sends nothing, "this event" trashes one occurrence', async () => {
    const { page } = await open(MARCH, tokens.editor);
    const id = yoga[0]!.series_id!;
    const before = await series(id);

    await dayEvent(page, 2, 'Yoga').click();
    await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    await page.locator('#scope').locator('button', { hasText: 'Cancel' }).click();
    expect((await series(id)).length).toBe(before.length);
    expect(await page.locator('#scope-question').textContent()).toMatch(/^Move which events of “Yoga/);

    await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    await page.check('#scope-this');
    await page.click('#scope-ok');

    await poll(async () => (await series(id)).length).toBe(before.length - 1);
    const trashed = (await series(id, 'trash')).map((e) => e.id);
    expect(trashed).toEqual([before[0]!.id]);
    // A single event is trashed without the question of scope (after its confirmation, issue 29).
    await page.locator('.fc-event', { hasText: 'Lecture' }).click();
    await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    expect(await page.locator('#scope').isVisible()).toBe(false);
    await page.click('#trash-ok');
    await poll(async () => (await api.get(`/events/${single}`, { token: tokens.editor })).body.status).toBe(
      'trash',
    );
  });
});
