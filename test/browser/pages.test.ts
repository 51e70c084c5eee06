import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  creator,
} from './browser';

/**
 * The public pages and the page's addresses in a real browser (issue 29): an event's page with the app
 * started on it, the category and tag views, the address following the open event and the months
 * browsed, and the edit form never saving the link the API derives as a website.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let browser: Browser;
const contexts: BrowserContext[] = [];
let jazz: Record<string, any>;
let plain: Record<string, any>;
/** A weekly series' occurrences (May 2028: series are written 24 months ahead), soonest first. */
let yoga: Array<Record<string, any>>;

const created = creator(api, tokens.editor);

beforeAll(async () => {
  if (skipBrowser) return;
  await Promise.all([ensureWebBuilt(), launch().then((b) => (browser = b))]);
  const music = await created('/categories', { name: 'Music' });
  const talks = await created('/categories', { name: 'Talks' });
  const tag = await created('/tags', { name: 'Accessible' });
  const venue = await created('/venues', { venue: 'Blue Hall', city: 'Bristol', country: 'United Kingdom' });
  jazz = await created('/events', {
    title: 'Jazz Night',
    status: 'publish',
    start_date: '2031-03-12 20:00:00',
    end_date: '2031-03-12 23:00:00',
    timezone: 'America/New_York',
    description: '<p>Standards and <strong>late sets</strong>.</p>',
    categories: [music.id],
    tags: [tag.id],
    venue: [venue.id],
  });
  plain = await created('/events', {
    title: 'Town Talk',
    status: 'publish',
    start_date: '2031-03-14 10:00:00',
    end_date: '2031-03-14 11:00:00',
    timezone: 'UTC',
    categories: [talks.id],
  });
  const first = await created('/events', {
    title: 'Yoga',
    status: 'publish',
    start_date: '2028-05-02 19:00:00',
    end_date: '2028-05-02 20:00:00',
    timezone: 'Europe/Berlin',
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
  });
  // What the create left in the series' journal (a loaded machine), finished as the extend job would.
  await finishJournal(first.series_id, Number.POSITIVE_INFINITY);
  yoga = (await api.get(`/events?series=${first.id}&start_date=2028-01-01&end_date=2028-12-31`)).body.events;
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

const open = (path: string, o: { token?: string; width?: number } = {}) =>
  openCalendar(browser, contexts, `${api.origin}${path}`, o);

const path = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};
const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout });
const dialogOpen = (page: Page) =>
  page.locator('#detail').evaluate((d) => (d as unknown as { open: boolean }).open);

describe.skipIf(skipBrowser)('an event page', () => {
  it("shows the server-rendered event and starts the calendar on it, at the event's month, with the event open", async () => {
    const { page, errors } = await open(new URL(jazz.url).pathname);

    expect(await page.title()).toBe('Jazz Night – Event calendar');
    expect(await page.locator('#record h2').textContent()).toBe('Jazz Night');
    await poll(() => page.locator('#detail-title').textContent()).toBe('Jazz Night');
    expect(await dialogOpen(page)).toBe(true);
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('March 2031');
    expect(path(page)).toBe(new URL(jazz.url).pathname);
    await screenshot(page, 'event-page');
    expect(await seriousViolations(page)).toEqual([]);

    // Closing it leaves the event's address for the calendar's.
    await page.keyboard.press('Escape');
    await poll(() => path(page)).toBe('/?date=2031-03-01');
    expect(await page.title()).toBe('Event calendar');
    expect(await page.locator('#record').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('links its categories and tags to their views of the calendar, filtered', async () => {
    const { page } = await open('/events/category/music/?date=2031-03-01');

    await poll(() => titles(page)).toContain('Jazz Night');
    expect(await titles(page)).not.toContain('Town Talk');
    await poll(() => page.locator('#f-category').inputValue()).toBe('music');
    expect(await page.title()).toBe('Category: Music – Event calendar');
    expect(path(page)).toBe('/events/category/music/?date=2031-03-01');

    const tag = await open('/tag/accessible/?date=2031-03-01');
    await poll(() => titles(tag.page)).toEqual(['Jazz Night']);
    // Another filter leaves the tag's page for the calendar's own address.
    await tag.page.locator('#f-category option[value="talks"]').waitFor({ state: 'attached' });
    await tag.page.selectOption('#f-tag', '');
    await poll(() => path(tag.page)).toBe('/?date=2031-03-01');
  });
});

describe.skipIf(skipBrowser)("an occurrence's page", () => {
  it("shows how its series repeats and its other dates, on the page and in the app's detail, each leading to its page", async () => {
    expect(yoga.map((o) => o.start_date.slice(0, 10))).toEqual([
      '2028-05-02',
      '2028-05-09',
      '2028-05-16',
      '2028-05-23',
    ]);
    const pathOf = (o: Record<string, any>) => new URL(o.url).pathname;
    const { page, errors } = await open(pathOf(yoga[1]!));
    const others = [yoga[0]!, yoga[2]!, yoga[3]!].map(pathOf);
    const rule = `Repeats ${yoga[1]!.recurrence_text.charAt(0).toLowerCase()}${yoga[1]!.recurrence_text.slice(1)}`;

    // Server-rendered: readable before any script.
    const article = page.locator('#record');
    expect(await article.locator('[data-role="recurrence"]').textContent()).toBe(rule);
    expect(
      await article
        .locator('[data-role="series-dates"] a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    ).toEqual(others);
    // The app's detail, open on it: the same rule and dates, in the viewer's zone.
    const detail = page.locator('#detail');
    await poll(() => detail.locator('[data-role="series-dates"] a').count()).toBe(3);
    expect(await detail.locator('[data-role="recurrence"]').textContent()).toBe(rule);
    expect(
      await detail
        .locator('[data-role="series-dates"] a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    ).toEqual(others);
    expect(await detail.locator('[data-role="series-dates"] a').first().textContent()).toMatch(
      /2 May 2028, 19:00 – 20:00/,
    );
    expect(await detail.locator('[data-role="series-link"]').getAttribute('href')).toBe(
      `/?view=listYear&date=2028-05-09&series=${yoga[1]!.series_id}`,
    );
    await screenshot(page, 'series-event-page');
    expect(await seriousViolations(page)).toEqual([]);

    // A date leads to its own page, with that occurrence open.
    await detail.locator('[data-role="series-dates"] a').last().click();
    await poll(() => path(page)).toBe(pathOf(yoga[3]!));
    await poll(() => page.locator('#detail-title').textContent()).toBe('Yoga');
    expect(await page.locator('#record').getAttribute('data-date')).toBe('2028-05-23');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(skipBrowser)("the page's address", () => {
  it("is the open event's page; Back closes it and Forward opens it again", async () => {
    const { page, errors } = await open('/?date=2031-03-01');

    await page.locator('.fc-event', { hasText: 'Town Talk' }).click();
    await poll(() => path(page)).toBe(new URL(plain.url).pathname);
    expect(await page.title()).toBe('Town Talk – Event calendar');

    await page.goBack();
    await poll(() => dialogOpen(page)).toBe(false);
    expect(path(page)).toBe('/?date=2031-03-01');

    await page.goForward();
    await poll(() => dialogOpen(page)).toBe(true);
    expect(await page.locator('#detail-title').textContent()).toBe('Town Talk');

    // Closing it by its button goes back to the calendar's entry, not a new one.
    await page.locator('#detail-actions button', { hasText: 'Close' }).click();
    await poll(() => path(page)).toBe('/?date=2031-03-01');
    expect(errors).toEqual([]);
  });

  it('keeps the months browsed in the history', async () => {
    const { page } = await open('/?date=2031-03-01');

    await page.click('.fc-next-button');
    await poll(() => path(page)).toBe('/?date=2031-04-01');
    await page.click('.fc-next-button');
    await poll(() => path(page)).toBe('/?date=2031-05-01');

    await page.goBack();
    await poll(() => page.locator('.fc-toolbar-title').textContent()).toBe('April 2031');
    expect(path(page)).toBe('/?date=2031-04-01');
    await page.goBack();
    await poll(() => page.locator('.fc-toolbar-title').textContent()).toBe('March 2031');
  });

  it('refuses a date that is not a day of the calendar, saying so, rather than rolling it over', async () => {
    const { page } = await open('/?date=2031-02-31');

    await poll(() => page.locator('#notice').textContent()).toBe(
      '“2031-02-31” in the address is not a date of the calendar: showing today instead.',
    );
    expect(await page.locator('.fc-toolbar-title').textContent()).not.toBe('March 2031');
    expect(new URL(page.url()).searchParams.get('date')).not.toBe('2031-02-31');
  });
});

describe.skipIf(skipBrowser)('the edit form', () => {
  it("never saves the link the API derives as the event's website, so a new slug leaves none stale", async () => {
    // The event has no website: the API shows its own page there.
    const event = await created('/events', {
      title: 'Harbour Walk',
      status: 'publish',
      start_date: '2031-03-18 10:00:00',
      end_date: '2031-03-18 12:00:00',
      timezone: 'UTC',
    });
    expect(event.website).toBe(event.url);
    const { page } = await open('/?date=2031-03-01', { token: tokens.editor });

    await page.locator('.fc-event', { hasText: 'Harbour Walk' }).click();
    expect(await page.locator('#detail dt', { hasText: 'Website' }).count()).toBe(0);
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();
    expect(await page.locator('#e-website').inputValue()).toBe('');
    await page.fill('#e-title', 'Harbour Walk (long)');
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Harbour Walk (long)');

    // Then its slug changes: with the old link saved as its website, that would still name the old page.
    const renamed = await api.post(
      `/events/${event.id}`,
      { slug: 'harbour-stroll' },
      { token: tokens.editor },
    );
    expect(renamed.status).toBe(200);
    const stored = (await api.get(`/events/${event.id}`)).body;
    expect(stored.url).toMatch(/\/event\/harbour-stroll\/$/);
    expect(stored.website).toBe(stored.url);
  });
});

describe.skipIf(skipBrowser)('subscribing', () => {
  it('offers the filtered view to Google Calendar, Apple Calendar, Outlook 365 and Outlook.com, to copy and to download', async () => {
    const { page, errors } = await open('/?date=2031-03-01&category=music');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.origin });
    await poll(() => page.locator('#subscribe').getAttribute('href')).toBe(
      '/cal/events/v1/events/ical?categories=music',
    );

    await page.click('#subscribe-menu summary');
    const feed = `${api.origin}/cal/events/v1/events/ical?categories=music`;
    const webcal = feed.replace(/^http:/, 'webcal:');
    const href = (role: string) =>
      page.locator(`#subscribe-menu a[data-role="${role}"]`).getAttribute('href');
    expect(await href('google')).toBe(
      `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    );
    expect(await href('apple')).toBe(webcal);
    expect(await href('outlook365')).toBe(
      `https://outlook.office.com/owa?path=/calendar/action/compose&rru=addsubscription&url=${encodeURIComponent(webcal)}&name=Event%20calendar%20(filtered)`,
    );
    expect(await href('outlook-com')).toMatch(
      new RegExp(
        `^https://outlook\\.live\\.com/owa\\?path=/calendar/action/compose&rru=addsubscription&url=${encodeURIComponent(webcal).replace(/[.?]/g, '\\$&')}&`,
      ),
    );
    await screenshot(page, 'subscribe-menu');
    expect(await seriousViolations(page)).toEqual([]);

    await page.click('#subscribe-menu [data-role="copy"]');
    await poll(() => page.locator('#notice').textContent()).toBe(`Copied the calendar's address: ${feed}`);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(feed);

    // The download is the feed itself (its default window: upcoming events, which 2031's are not yet).
    const ics = await fetch(`${api.origin}${await page.locator('#subscribe').getAttribute('href')}`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    expect(await ics.text()).toMatch(/^BEGIN:VCALENDAR/);
    expect(await page.locator('#subscribe').getAttribute('download')).toBe('events.ics');

    // Changing the filter changes every option.
    await page.selectOption('#f-category', '');
    await poll(() => href('apple')).toBe(
      `${api.origin.replace(/^http:/, 'webcal:')}/cal/events/v1/events/ical`,
    );
    expect(errors).toEqual([]);
  });

  it('adds one event to Google Calendar or Outlook, or as its .ics, from its detail', async () => {
    const { page } = await open('/?date=2031-03-01');

    await page.locator('.fc-event', { hasText: 'Jazz Night' }).click();
    const link = (role: string) => page.locator(`#detail a[data-role="${role}"]`).getAttribute('href');
    await page.locator('#detail a[data-role="add-google"]').waitFor();

    const google = new URL((await link('add-google'))!);
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(google.searchParams)).toMatchObject({
      action: 'TEMPLATE',
      text: 'Jazz Night',
      // 20:00–23:00 in New York on 12 March 2031 (EDT) as UTC instants.
      dates: '20310313T000000Z/20310313T030000Z',
      location: 'Blue Hall, Bristol, United Kingdom',
      ctz: 'America/New_York',
    });
    expect(google.searchParams.get('details')).toContain(jazz.url);
    for (const [role, host] of [
      ['add-outlook365', 'outlook.office.com'],
      ['add-outlook-com', 'outlook.live.com'],
    ] as const) {
      const outlook = new URL((await link(role))!);
      expect(outlook.host).toBe(host);
      expect(Object.fromEntries(outlook.searchParams)).toMatchObject({
        rru: 'addevent',
        subject: 'Jazz Night',
        startdt: '2031-03-13T00:00:00Z',
        enddt: '2031-03-13T03:00:00Z',
        allday: 'false',
      });
    }
    expect(await link('add-ics')).toBe(`/cal/events/v1/events/${jazz.id}/ical`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('fits a phone: the menu opens in the flow of the page', async () => {
    const { page } = await open('/?date=2031-03-01', { width: 360 });

    await page.click('#subscribe-menu summary');
    await page.locator('#subscribe-menu a[data-role="google"]').waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe.skipIf(skipBrowser)('the time zone', () => {
  it("is named on the page: timed events are drawn in the viewer's zone", async () => {
    const { page } = await open('/?date=2031-03-01');

    expect(await page.locator('#zone-note').textContent()).toBe(
      'Times are shown in your time zone, Europe/Berlin.',
    );
  });
});
