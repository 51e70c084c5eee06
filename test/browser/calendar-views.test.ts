import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';
import {
  eventTitles as titles,
  launch,
  openCalendar,
  screenshot,
  seriousViolations,
  skipBrowser,
  watchErrors,
  creator,
} from './browser';

/**
 * The calendar's views and states in a real browser (issue 29): long timed events in the all-day row,
 * the week opening at 08:00, one day for an hour across midnight, the count of the view, the browser's
 * language, the detail's time zone switch, the phone's folded filters, loading / error / empty states,
 * colours per category with their legend, tooltips and the list's venue. The viewer is in Berlin (CET,
 * UTC+1, in March 2031); axe runs on each state visited.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let browser: Browser;
const contexts: BrowserContext[] = [];
const LONG_TITLE = 'Pottery for Beginners: Wheel, Glaze and Kiln in One Long Afternoon';

const create = creator(api, tokens.editor);
const created = async (path: string, body: unknown): Promise<number> =>
  (await create(path, body)).id as number;

beforeAll(async () => {
  if (skipBrowser) return;
  await Promise.all([ensureWebBuilt(), launch().then((b) => (browser = b))]);
  const music = await created('/categories', { name: 'Music' });
  const jazz = await created('/categories', { name: 'Jazz', parent: music });
  const festivals = await created('/categories', { name: 'Festivals' });
  const workshops = await created('/categories', { name: 'Workshops' });
  const venue = await created('/venues', { venue: 'Blue Hall', city: 'Bristol' });
  const event = (body: Record<string, unknown>) => created('/events', { status: 'publish', ...body });
  // 22:30–23:30 UTC is 23:30–00:30 in Berlin: across the viewer's midnight.
  await event({
    title: 'Late Set',
    start_date: '2031-03-12 22:30:00',
    end_date: '2031-03-12 23:30:00',
    timezone: 'UTC',
    categories: [music],
  });
  // 15:00 in New York (EDT) is 20:00 in Berlin.
  await event({
    title: 'Jazz Night',
    start_date: '2031-03-13 15:00:00',
    end_date: '2031-03-13 18:00:00',
    timezone: 'America/New_York',
    categories: [jazz],
    venue: [venue],
  });
  await event({
    title: 'Harbour Festival',
    start_date: '2031-03-18 10:00:00',
    end_date: '2031-03-20 18:00:00',
    timezone: 'UTC',
    categories: [festivals],
  });
  await event({
    title: LONG_TITLE,
    start_date: '2031-03-25 10:00:00',
    end_date: '2031-03-25 12:00:00',
    timezone: 'UTC',
    categories: [workshops],
  });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

const open = (path: string, o: { width?: number } = {}) =>
  openCalendar(browser, contexts, `${api.origin}${path}`, o);
const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout });
const statusText = (page: Page) => page.locator('#status').textContent();
const noViolations = async (page: Page, state: string) =>
  expect({ state, violations: await seriousViolations(page) }).toEqual({ state, violations: [] });

/** A computed style of an element (run in the page; the test program has no DOM types). */
type Styled = { getComputedStyle(e: unknown): Record<string, string> };
const computed = (locator: Locator, property: string) =>
  locator.evaluate((e, p) => (globalThis as unknown as Styled).getComputedStyle(e)[p]!, property);

/**
 * How far below the top of the week or day view's visible hours (its frame's top, or the days' header
 * when it sticks) a time slot's row is, in pixels.
 */
const slotOffset = (page: Page, time: string) =>
  page.evaluate(`(() => {
    const slot = document.querySelector('.fc-timegrid-slot-lane[data-time="${time}"]');
    const harness = document.querySelector('.fc-view-harness');
    const header = harness.querySelector('.fc-scrollgrid-section-header > *');
    const top = getComputedStyle(header).position === 'sticky'
      ? header.getBoundingClientRect().bottom
      : harness.getBoundingClientRect().top;
    return Math.round(slot.getBoundingClientRect().top - top);
  })()`) as Promise<number>;

describe.skipIf(skipBrowser)('the calendar views', () => {
  it('draws a timed event of several days in the all-day row of the week view, which opens at 08:00', async () => {
    const { page, errors } = await open('/?view=timeGridWeek&date=2031-03-17');

    const bar = page.locator('.fc-daygrid-body .fc-event', { hasText: 'Harbour Festival' });
    await poll(() => bar.count()).toBe(1);
    expect(await page.locator('.fc-timegrid-event', { hasText: 'Harbour Festival' }).count()).toBe(0);
    // 18–20 March: the bar spans three of the week's seven days.
    const [barBox, rowBox] = await Promise.all([
      bar.boundingBox(),
      page.locator('.fc-daygrid-body').first().boundingBox(),
    ]);
    expect(barBox!.width / rowBox!.width).toBeGreaterThan(0.35);
    expect(barBox!.width / rowBox!.width).toBeLessThan(0.45);
    expect(Math.abs(await slotOffset(page, '08:00:00'))).toBeLessThanOrEqual(2);
    await noViolations(page, 'week');

    const day = await open('/?view=timeGridDay&date=2031-03-13');
    await poll(() => titles(day.page)).toContain('Jazz Night');
    expect(Math.abs(await slotOffset(day.page, '08:00:00'))).toBeLessThanOrEqual(2);
    expect(errors).toEqual([]);
  });

  it('draws a one-hour event across the viewer midnight on one day of the month view', async () => {
    const { page } = await open('/?date=2031-03-01');

    const chips = page.locator('.fc-daygrid-event', { hasText: 'Late Set' });
    await poll(() => chips.count()).toBe(1);
    expect(
      await page
        .locator('.fc-daygrid-day[data-date="2031-03-12"] .fc-event', { hasText: 'Late Set' })
        .count(),
    ).toBe(1);
    expect(await chips.locator('.fc-event-time').textContent()).toBe('23:30');
  });

  it('counts the events of the view shown, also after a change of view that fetched nothing', async () => {
    const { page } = await open('/?date=2031-03-01');
    await poll(() => statusText(page)).toBe('4 events shown.');

    // The week of 1 March (24 February – 2 March) is inside the month's window: nothing is fetched.
    await page.click('.fc-timeGridWeek-button');
    await poll(() => statusText(page)).toBe('No events shown.');
    await page.click('.fc-next-button');
    await page.click('.fc-next-button');
    await poll(() => page.locator('.fc-toolbar-title').textContent()).toBe('10 – 16 Mar 2031');
    await poll(() => statusText(page)).toBe('2 events shown.');
    await page.click('.fc-timeGridDay-button');
    await poll(() => statusText(page)).toMatch(/^(No events|1 event) shown\.$/);
    await page.click('.fc-listMonth-button');
    await poll(() => statusText(page)).toBe('4 events shown.');
  });

  it("labels and times follow the browser's language, loading its locale alone", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Europe/Berlin',
      locale: 'de-DE',
    });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${api.origin}/?view=timeGridWeek&date=2031-03-10`);
    await page
      .locator('#status')
      .filter({ hasText: /shown\.$/ })
      .waitFor();

    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('10 – 16. März 2031');
    expect(await page.locator('.fc-today-button').textContent()).toBe('Heute');
    expect(await page.locator('.fc-listMonth-button').textContent()).toBe('Terminübersicht');
    expect(await page.locator('.fc-timegrid-axis-cushion').first().textContent()).toBe('Ganztägig');
    expect(await page.locator('.fc-timegrid-slot-label[data-time="14:00:00"]').first().textContent()).toBe(
      '14:00',
    );
    const jazz = page.locator('.fc-timegrid-event', { hasText: 'Jazz Night' });
    expect(await jazz.locator('.fc-event-time').textContent()).toBe('20:00 - 23:00');
    expect(scripts.filter((s) => s.startsWith('/locales/'))).toEqual(['/locales/de.js']);
    await noViolations(page, 'week in German');

    await jazz.click();
    await poll(() => page.locator('#detail [data-role="dates"]').textContent()).toMatch(
      /^Do\., 13\. März 2031, 20:00 – 23:00/,
    );
    expect(errors).toEqual([]);
  });

  it('writes times in one format, 12-hour in an American browser, calendar and detail alike', async () => {
    const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${api.origin}/?view=timeGridDay&date=2031-03-13`);
    const jazz = page.locator('.fc-timegrid-event', { hasText: 'Jazz Night' });
    await jazz.waitFor();

    expect(await jazz.locator('.fc-event-time').textContent()).toBe('08:00 PM - 11:00 PM');
    expect(await page.locator('.fc-timegrid-slot-label[data-time="14:00:00"]').first().textContent()).toBe(
      '02:00 PM',
    );
    await jazz.click();
    await poll(() => page.locator('#detail [data-role="dates"]').textContent()).toMatch(
      /08:00 PM – 11:00 PM/,
    );
    // English needs no locale file.
    expect(scripts.filter((s) => s.startsWith('/locales/'))).toEqual([]);
  });

  it("switches the detail's times to the event's own time zone and keeps the choice", async () => {
    const { page } = await open('/?date=2031-03-01');
    await page.locator('.fc-event', { hasText: 'Jazz Night' }).click();
    const dates = page.locator('#detail [data-role="dates"]');
    const other = page.locator('#detail [data-role="own-dates"]');
    await poll(() => dates.textContent()).toMatch(/^Thu, 13 Mar 2031, 20:00 – 23:00/);
    expect(await other.textContent()).toBe('Thu, 13 Mar 2031, 15:00 – 18:00 (America/New_York)');

    const button = page.locator('#detail [data-role="zone-switch"]');
    expect(await button.textContent()).toBe("Show in the event's time zone (America/New_York)");
    await button.click();
    expect(await dates.textContent()).toBe('Thu, 13 Mar 2031, 15:00 – 18:00 (America/New_York)');
    expect(await other.textContent()).toMatch(/^Thu, 13 Mar 2031, 20:00 – 23:00/);
    expect(await page.locator('#detail dt', { hasText: 'In your time zone' }).count()).toBe(1);
    await noViolations(page, "detail in the event's zone");

    // The next detail opens in the zone chosen.
    await page.keyboard.press('Escape');
    await page.locator('.fc-event', { hasText: 'Jazz Night' }).click();
    await poll(() => dates.textContent()).toBe('Thu, 13 Mar 2031, 15:00 – 18:00 (America/New_York)');
    await page.locator('#detail [data-role="zone-switch"]').click();
    expect(await dates.textContent()).toMatch(/^Thu, 13 Mar 2031, 20:00 – 23:00/);
  });

  it('folds the filters on a phone, so the calendar starts in the first half of the screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      timezoneId: 'Europe/Berlin',
      locale: 'en-GB',
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${api.origin}/?date=2031-03-01`);
    await poll(() => titles(page)).toContain('Jazz Night');

    const toggle = page.locator('#filters-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#f-category').isVisible()).toBe(false);
    expect(await page.locator('#f-search').isVisible()).toBe(false);
    // The view's subscribe menu stays.
    expect(await page.locator('#subscribe-menu summary').isVisible()).toBe(true);
    const top = (await page.locator('#calendar').boundingBox())!.y;
    expect(top).toBeLessThan(844 / 2);
    await screenshot(page, 'phone-view');
    await noViolations(page, 'phone, filters folded');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#f-category').isVisible()).toBe(true);
    await noViolations(page, 'phone, filters open');
    await page.locator('#f-category option[value="music"]').waitFor({ state: 'attached' });
    await page.selectOption('#f-category', 'music');
    await poll(() => titles(page)).not.toContain('Harbour Festival');
    await toggle.click();
    expect(await toggle.textContent()).toBe('Filters (1 applied)');
    expect(await page.locator('#f-category').isVisible()).toBe(false);
  });

  it('shows loading, then a failure with a retry that loads the events', async () => {
    const { page } = await open('/?date=2031-03-01');
    const isEvents = (url: URL) => url.pathname === '/cal/events/v1/events';

    // Loading: held until released.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(isEvents, async (route) => {
      await held;
      await route.continue();
    });
    await page.click('.fc-next-button');
    await poll(() => statusText(page)).toBe('Loading events…');
    expect(await page.locator('#calendar').getAttribute('aria-busy')).toBe('true');
    await noViolations(page, 'loading');
    release();
    await poll(() => statusText(page)).toBe('No events shown.');
    expect(await page.locator('#calendar').getAttribute('aria-busy')).toBe('false');
    await page.unroute(isEvents);

    // Failure: the API answers 500.
    await page.route(isEvents, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'internal_error', message: 'Something broke.', data: { status: 500 } }),
      }),
    );
    await page.click('.fc-prev-button');
    await poll(() => statusText(page)).toMatch(/^Could not load events: /);
    const retry = page.locator('#view-state button', { hasText: 'Try again' });
    expect(await retry.isVisible()).toBe(true);
    await screenshot(page, 'load-error');
    await noViolations(page, 'error');

    await page.unroute(isEvents);
    await retry.click();
    await poll(() => statusText(page)).toBe('4 events shown.');
    expect(await retry.count()).toBe(0);
    expect(await titles(page)).toContain('Jazz Night');
  });

  it('says when a view is empty, offering to clear the filters that hide events', async () => {
    const { page } = await open('/?date=2031-03-01&category=workshops&view=listMonth');
    await poll(() => titles(page)).toEqual([LONG_TITLE]);

    await page.click('.fc-next-button');
    await poll(() => statusText(page)).toBe('No events shown.');
    const clear = page.locator('#view-state button', { hasText: 'Clear the filters' });
    expect(await clear.isVisible()).toBe(true);
    await noViolations(page, 'empty');
    await page.click('.fc-prev-button');
    await poll(() => statusText(page)).toBe('1 event shown.');
    await clear.waitFor({ state: 'detached' });

    const { page: plain } = await open('/?date=2031-08-01');
    await poll(() => statusText(plain)).toBe('No events shown.');
    expect(await plain.locator('#view-state button').count()).toBe(0);
  });

  it('colours events by category (children as their parent) with a legend, tooltips and the venue in the list', async () => {
    const { page, errors } = await open('/?date=2031-03-01');
    await poll(() => page.locator('#legend li').allTextContents()).toEqual([
      'Festivals',
      'Music',
      'Workshops',
    ]);
    const swatch = (name: string) =>
      computed(page.locator('#legend li', { hasText: name }).locator('.swatch'), 'backgroundColor');
    const colours = {
      festivals: await swatch('Festivals'),
      music: await swatch('Music'),
      workshops: await swatch('Workshops'),
    };
    expect(new Set(Object.values(colours)).size).toBe(3);
    const bar = page.locator('.fc-daygrid-block-event', { hasText: 'Harbour Festival' }).first();
    expect(await computed(bar, 'backgroundColor')).toBe(colours.festivals);
    // A chip cut short names its event in full on hover.
    const pottery = page.locator('.fc-daygrid-event', { hasText: 'Pottery for Beginners' });
    expect(await pottery.getAttribute('title')).toBe(`11:00 ${LONG_TITLE}`);
    await noViolations(page, 'month with colours');

    await page.click('.fc-listMonth-button');
    const jazz = page.locator('.fc-list-event', { hasText: 'Jazz Night' });
    await jazz.waitFor();
    expect(await jazz.locator('.event-venue').textContent()).toBe('Blue Hall');
    // Jazz is a child of Music: the same colour.
    expect(await computed(jazz.locator('.fc-list-event-dot'), 'borderTopColor')).toBe(colours.music);
    expect(await titles(page)).toContain('Jazz Night');
    await screenshot(page, 'list-venue');
    await noViolations(page, 'list with venues');
    expect(errors).toEqual([]);
  });
});
