import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';
import { eventTitles as titles, launch, openCalendar, seriousViolations, skipBrowser } from './browser';

/**
 * The editor on the calendar page (issue 29, docs/calendar-page.md "Editing"): creating from a day or a
 * time slot, venues and organizers created from the form, searchable multi-selects, every field error
 * at once, and trash with a confirmation and an undo. The viewer is in Berlin; the events are in
 * May 2032, a month of their own.
 */
vi.setConfig({ testTimeout: 120_000 });

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let browser: Browser;
const contexts: BrowserContext[] = [];

async function created(path: string, body: unknown): Promise<number> {
  const res = await api.post(path, body, { token: tokens.editor });
  if (res.status !== 201) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

beforeAll(async () => {
  if (skipBrowser) return;
  [, browser] = await Promise.all([ensureWebBuilt(), launch()]);
  await created('/events', {
    title: 'Harbour Walk',
    status: 'publish',
    start_date: '2032-05-05 10:00:00',
    end_date: '2032-05-05 12:00:00',
    timezone: 'Europe/Berlin',
  });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

const open = (path: string, token?: string) =>
  openCalendar(browser, contexts, `${api.origin}${path}`, { token });
const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout });
const value = (page: Page, selector: string) => page.locator(selector).inputValue();

/** The events of a day as the API lists them to an editor. */
async function listed(day: string): Promise<Array<Record<string, unknown>>> {
  const res = await api.get(`/events?start_date=${day}&end_date=${day}&status=publish,draft`, {
    token: tokens.editor,
  });
  expect(res.status).toBe(200);
  return res.body.events;
}

describe.skipIf(skipBrowser)('the editor', () => {
  it('opens on a click of a day (all day) or a time slot (from that time) for a new event', async () => {
    const { page, errors } = await open('/?date=2032-05-01', tokens.editor);
    await poll(() => titles(page)).toContain('Harbour Walk');

    // An empty part of the day's cell, below its number.
    await page.locator('td.fc-daygrid-day[data-date="2032-05-12"]').click({ position: { x: 20, y: 60 } });
    const editor = page.locator('#editor');
    await editor.waitFor();
    expect(await page.locator('#editor-title').textContent()).toBe('New event');
    expect(await value(page, '#e-start')).toBe('2032-05-12T00:00');
    expect(await value(page, '#e-end')).toBe('2032-05-12T23:59');
    expect(await page.locator('#e-all-day').isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#e-title', 'Kite Day');
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Kite Day');
    expect((await listed('2032-05-12')).find((e) => e.title === 'Kite Day')).toMatchObject({
      all_day: true,
      start_date: '2032-05-12 00:00:00',
    });

    // The week view: 10:00 on Thursday 13 May, where its column crosses the 10:00 row.
    await page.click('.fc-timeGridWeek-button');
    const lane = page.locator('.fc-timegrid-slot-lane[data-time="10:00:00"]');
    await lane.scrollIntoViewIfNeeded();
    const column = await page.locator('.fc-timegrid-col[data-date="2032-05-13"]').boundingBox();
    const row = await lane.boundingBox();
    await page.mouse.click(column!.x + column!.width / 2, row!.y + row!.height / 2);
    await editor.waitFor();
    expect(await value(page, '#e-start')).toBe('2032-05-13T10:00');
    expect(await value(page, '#e-end')).toBe('2032-05-13T11:00');
    expect(await page.locator('#e-all-day').isChecked()).toBe(false);
    await page.fill('#e-title', 'Sail Repair');
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Sail Repair');
    expect((await listed('2032-05-13')).find((e) => e.title === 'Sail Repair')).toMatchObject({
      all_day: false,
      start_date: '2032-05-13 10:00:00',
      end_date: '2032-05-13 11:00:00',
      timezone: 'Europe/Berlin',
    });

    // Clicking an event opens it, not a new one.
    await page.locator('.fc-event', { hasText: 'Sail Repair' }).click();
    await page.locator('#detail').waitFor();
    expect(await editor.isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('does not open the editor on a click for a visitor who is not signed in', async () => {
    const { page } = await open('/?date=2032-05-01');
    await page.locator('td.fc-daygrid-day[data-date="2032-05-19"]').click({ position: { x: 20, y: 60 } });
    await page.locator('#editor').waitFor({ state: 'hidden' });
    expect(await page.locator('#editor').isVisible()).toBe(false);
  });
});
