import type { Browser, BrowserContext } from 'playwright-core';
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
  viewer,
  watchErrors,
  creator,
} from './browser';

/**
 * The calendar page in a real browser (headless Chromium), served by the local gateway with the API on
 * the same origin, over data seeded through the API. The viewer is in Berlin; the events are in UTC,
 * New York and all-day, in March 2031 (a month of their own, whatever today is).
 */
// A browser on a busy machine (CI runs every test file at once) needs more than the default 30 s.

const { api, tokens } = await useStack({
  tokens: { editor: 'editor', contributor: ['contributor', 'user-contrib'] },
});

interface Seeded {
  music: number;
  jazz: number;
  workshops: number;
  jazzNight: number;
  pottery: number;
  fair: number;
  draft: number;
  april: number;
}
let ids: Seeded;
let browser: Browser;
const contexts: BrowserContext[] = [];

const create = creator(api, tokens.editor);
const created = async (path: string, body: unknown): Promise<number> =>
  (await create(path, body)).id as number;

beforeAll(async () => {
  if (skipBrowser) return;
  const [built] = await Promise.all([ensureWebBuilt(), launch().then((b) => (browser = b))]);
  void built;
  const music = await created('/categories', { name: 'Music' });
  const jazz = await created('/categories', { name: 'Jazz', parent: music });
  const workshops = await created('/categories', { name: 'Workshops' });
  const tag = await created('/tags', { name: 'Accessible' });
  const venue = await created('/venues', {
    venue: 'Blue Hall',
    address: '1 Harbour Street',
    city: 'Bristol',
    zip: 'BS1 5TX',
    country: 'United Kingdom',
  });
  const organizer = await created('/organizers', { organizer: 'Night Owls Collective' });
  const event = (body: Record<string, unknown>) => created('/events', { status: 'publish', ...body });
  ids = {
    music,
    jazz,
    workshops,
    jazzNight: await event({
      title: 'Jazz Night',
      start_date: '2031-03-12 20:00:00',
      end_date: '2031-03-12 23:00:00',
      timezone: 'America/New_York',
      description: '<p>Standards and <strong>late sets</strong>.</p>',
      cost: '12',
      website: 'https://jazz.example.org/night',
      image: 'https://images.example.org/jazz.jpg',
      categories: [jazz],
      tags: [tag],
      venue: [venue],
      organizer: [organizer],
    }),
    pottery: await event({
      title: 'Pottery Workshop',
      start_date: '2031-03-14 10:00:00',
      end_date: '2031-03-14 12:00:00',
      timezone: 'UTC',
      categories: [workshops],
    }),
    fair: await event({
      title: 'Spring Fair',
      start_date: '2031-03-20',
      end_date: '2031-03-22',
      all_day: true,
      categories: [music],
    }),
    draft: await event({
      title: 'Secret Draft',
      start_date: '2031-03-16 18:00:00',
      end_date: '2031-03-16 19:00:00',
      status: 'draft',
    }),
    april: await event({
      title: 'April Concert',
      start_date: '2031-04-20 19:00:00',
      end_date: '2031-04-20 21:00:00',
    }),
  };
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

/** A page in a fresh context (own session storage), signed in when a token is given. */
const open = (path: string, o: { token?: string; width?: number } = {}) =>
  openCalendar(browser, contexts, `${api.origin}${path}`, o);

const MARCH = '/?date=2031-03-01';

/** expect.poll with room for a cold handler's first load (its module is transformed on first use). */
const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout });

describe.skipIf(skipBrowser)('the calendar page', () => {
  it('shows the seeded events of the month, all-day ones as such, and no drafts to anonymous visitors', async () => {
    const { page, errors } = await open(MARCH);

    await poll(() => titles(page)).toEqual(
      expect.arrayContaining(['Jazz Night', 'Pottery Workshop', 'Spring Fair']),
    );
    const shown = await titles(page);
    expect(shown).not.toContain('Secret Draft');
    expect(shown.some((t) => t.startsWith('Secret Draft'))).toBe(false);
    expect(shown).not.toContain('April Concert');
    await poll(() =>
      page.locator('.fc-daygrid-event.fc-event-start', { hasText: 'Spring Fair' }).count(),
    ).toBe(1);
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('March 2031');
    await screenshot(page, 'month');
    expect(errors).toEqual([]);
  });

  it('narrows the view by category (its children included) and keeps the filter in the URL across a reload', async () => {
    const { page } = await open(MARCH);
    await page.locator('#f-category option[value="music"]').waitFor({ state: 'attached' });

    await page.selectOption('#f-category', 'music');
    await poll(() => page.url()).toContain('category=music');
    await poll(() => titles(page)).not.toContain('Pottery Workshop');
    expect(await titles(page)).toEqual(expect.arrayContaining(['Jazz Night', 'Spring Fair']));

    await page.reload();
    await page
      .locator('#status')
      .filter({ hasText: /shown\.$/ })
      .waitFor();
    await poll(() => titles(page)).toEqual(expect.arrayContaining(['Jazz Night', 'Spring Fair']));
    expect(await titles(page)).not.toContain('Pottery Workshop');
    await poll(() => page.locator('#f-category').inputValue()).toBe('music');
    expect(await page.locator('#subscribe').getAttribute('href')).toBe(
      '/cal/events/v1/events/ical?categories=music',
    );
  });

  it('lists the events of the month in the list view', async () => {
    const { page } = await open('/?view=listMonth&date=2031-03-01');

    // The list repeats a multi-day event on each of its days.
    await poll(async () => [...new Set(await titles(page))]).toEqual([
      'Jazz Night',
      'Pottery Workshop',
      'Spring Fair',
    ]);
    expect((await titles(page)).filter((t) => t === 'Spring Fair')).toHaveLength(3);
    await screenshot(page, 'list');
  });

  it("shows an event's detail as the API returns it, in the viewer's zone and the event's own", async () => {
    const { page } = await open(MARCH);
    const json = (await api.get(`/events/${ids.jazzNight}`)).body;

    await page.locator('.fc-event', { hasText: 'Jazz Night' }).click();
    const dialog = page.locator('#detail');
    await dialog.locator('[data-role="dates"]').waitFor();

    const text = (role: string) => dialog.locator(`[data-role="${role}"]`).textContent();
    expect(await dialog.locator('#detail-title').textContent()).toBe(json.title);
    expect(await text('cost')).toBe(json.cost);
    expect(await text('venue')).toBe(json.venue.venue);
    expect(await text('address')).toBe('1 Harbour Street, BS1 5TX Bristol, United Kingdom');
    expect(await text('organizers')).toBe(
      json.organizer.map((o: { organizer: string }) => o.organizer).join(', '),
    );
    expect(await text('categories')).toBe('Jazz');
    expect(await text('tags')).toBe('Accessible');
    expect(await dialog.locator('[data-role="description"]').innerHTML()).toBe(json.description);
    // 20:00 in New York is 01:00 the next day in Berlin; the event's own time is shown beside it.
    expect(json.utc_start_date).toBe('2031-03-13 00:00:00');
    expect(await text('dates')).toMatch(/Thu, 13 Mar 2031, 01:00 – 04:00/);
    expect(await text('own-dates')).toMatch(/Wed, 12 Mar 2031, 20:00 – 23:00 \(America\/New_York\)/);
    expect(await dialog.locator('a', { hasText: 'Map' }).getAttribute('href')).toContain('openstreetmap.org');
    expect(await dialog.locator('a', { hasText: json.website }).getAttribute('href')).toBe(json.website);
    expect(await dialog.locator('img').getAttribute('src')).toBe(json.image.url);
    expect(await dialog.locator('a', { hasText: 'Add to calendar' }).getAttribute('href')).toBe(
      `/cal/events/v1/events/${ids.jazzNight}/ical`,
    );
    expect(await page.evaluate(`document.activeElement?.closest('dialog')?.id`)).toBe('detail');
    await screenshot(page, 'detail');

    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await poll(() => dialog.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
  });

  it('opens an event from the keyboard', async () => {
    const { page } = await open(MARCH);
    const event = page.locator('.fc-event', { hasText: 'Pottery Workshop' });

    await event.focus();
    await page.keyboard.press('Enter');

    await poll(() => page.locator('#detail-title').textContent()).toBe('Pottery Workshop');
  });

  it('shows drafts to a signed-in editor, marked as such', async () => {
    const { page } = await open(MARCH, { token: tokens.editor });

    await poll(() => titles(page)).toContain('Secret Draft (Draft)');
    expect(await page.locator('#who').textContent()).toBe('Signed in as editor (user-editor)');
  });

  it('signs in with a pasted token', async () => {
    const { page } = await open(MARCH);

    await page.click('#sign-in');
    await page.fill('#token', tokens.editor);
    await page.click('#signin-form button[type="submit"]');

    await poll(() => page.locator('#who').textContent()).toBe('Signed in as editor (user-editor)');
    await poll(() => titles(page)).toContain('Secret Draft (Draft)');
  });

  it('signs in through the sign-in page (authorization code with PKCE) and comes back to the same view', async () => {
    const { page, errors } = await open(`${MARCH}&view=listMonth`);

    await page.click('#sign-in');
    await page.locator('#signin-provider').waitFor();
    await screenshot(page, 'sign-in');
    await page.click('#signin-provider');
    await page.waitForURL(/\/local-auth\/authorize\?.*code_challenge_method=S256/);
    await page.fill('#sub', 'page-user');
    await page.selectOption('#role', 'editor');
    await page.click('button[type="submit"]');

    await poll(() => page.locator('#who').textContent()).toBe('Signed in as editor (page-user)');
    await poll(() => titles(page)).toContain('Secret Draft (Draft)');
    const url = new URL(page.url());
    expect(url.searchParams.get('view')).toBe('listMonth');
    expect(url.searchParams.get('date')).toBe('2031-03-01');
    expect(url.searchParams.has('code')).toBe(false);
    expect(await page.locator('#notice').textContent()).toBe('Signed in.');
    expect(errors).toEqual([]);
  });

  it('refuses a sign-in answer it did not ask for, keeping the view and signing no one in', async () => {
    const { page } = await open(`${MARCH}&view=listMonth&code=forged&state=forged`);

    await poll(() => page.locator('#notice').textContent()).toBe(
      'Sign-in failed: the answer did not match a sign-in started here. Try again.',
    );
    expect(await page.locator('#who').textContent()).toBe('Not signed in');
    const url = new URL(page.url());
    expect([...url.searchParams.keys()].sort()).toEqual(['date', 'view']);
    expect(await titles(page)).not.toContain('Secret Draft (Draft)');
  });

  it('creates an event through the form: it appears in the view and in GET /events', async () => {
    const { page, errors } = await open(MARCH, { token: tokens.editor });

    await page.click('#new-event');
    await page.fill('#e-title', 'Harbour Choir');
    await page.fill('#e-start', '2031-03-18T19:30');
    await page.fill('#e-end', '2031-03-18T21:00');
    await page.fill('#e-timezone', 'Europe/Berlin');
    await page.fill('#e-cost', '5');
    await page.fill('#e-categories-search', 'Music');
    await page.keyboard.press('Enter');
    await page.click('#e-save');

    await poll(() => titles(page)).toContain('Harbour Choir');
    const listed = await api.get('/events?start_date=2031-03-18&end_date=2031-03-18');
    const choir = listed.body.events.find((e: { title: string }) => e.title === 'Harbour Choir');
    expect(choir).toMatchObject({
      status: 'publish',
      start_date: '2031-03-18 19:30:00',
      utc_start_date: '2031-03-18 18:30:00',
      timezone: 'Europe/Berlin',
      author: 'user-editor',
    });
    expect(choir.cost_details.values).toEqual(['5']);
    expect(choir.categories.map((c: { id: number }) => c.id)).toEqual([ids.music]);
    expect(errors).toEqual([]);
  });

  it("shows the API's validation message next to the field it names", async () => {
    const { page } = await open(MARCH, { token: tokens.editor });

    await page.click('#new-event');
    await page.fill('#e-title', 'Backwards');
    await page.fill('#e-start', '2031-03-19T20:00');
    await page.fill('#e-end', '2031-03-19T18:00');
    await page.click('#e-save');

    const message = page.locator('[data-field="end_date"] .field-error');
    await poll(() => message.textContent()).toBe('end_date must not be before start_date.');
    expect(await page.locator('#e-end').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#e-end').getAttribute('aria-describedby')).toBe(
      await message.getAttribute('id'),
    );
    expect(await page.evaluate('document.activeElement?.id')).toBe('e-end');
    await screenshot(page, 'form-error');
    expect(await seriousViolations(page)).toEqual([]);

    // A missing title is named by the API too (data.params as a list).
    await page.fill('#e-title', '');
    await page.fill('#e-end', '2031-03-19T22:00');
    await page.click('#e-save');
    await poll(() => page.locator('[data-field="title"] .field-error').textContent()).toBe(
      'title must not be empty.',
    );
    expect(await page.locator('[data-field="end_date"] .field-error').count()).toBe(0);
  });

  it("saves a contributor's event as pending and shows it so", async () => {
    const { page } = await open(MARCH, { token: tokens.contributor });

    await page.click('#new-event');
    await page.fill('#e-title', 'Open Mic');
    await page.fill('#e-start', '2031-03-21T19:00');
    await page.fill('#e-end', '2031-03-21T22:00');
    await page.click('#e-save');

    await poll(() => titles(page)).toContain('Open Mic (Pending review)');
    await poll(() => page.locator('#notice').textContent()).toBe('Saved “Open Mic” (Pending review).');
  });

  it('edits, trashes and restores an event', async () => {
    const { page } = await open(MARCH, { token: tokens.editor });

    await page.locator('.fc-event', { hasText: 'Pottery Workshop' }).click();
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();
    await page.fill('#e-title', 'Pottery Workshop for Beginners');
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Pottery Workshop for Beginners');
    expect((await api.get(`/events/${ids.pottery}`)).body.title).toBe('Pottery Workshop for Beginners');

    await page.locator('.fc-event', { hasText: 'Pottery Workshop for Beginners' }).click();
    await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    await page.click('#trash-ok');
    await poll(() => titles(page)).not.toContain('Pottery Workshop for Beginners');
    expect((await api.get(`/events/${ids.pottery}`, { token: tokens.editor })).body.status).toBe('trash');

    await page.check('#f-trash');
    await poll(() => titles(page)).toEqual(['Pottery Workshop for Beginners (In the trash)']);
    await page.locator('.fc-event').first().click();
    await page.locator('#detail-actions button', { hasText: 'Restore' }).click();
    await poll(() => titles(page)).toEqual([]);
    expect((await api.get(`/events/${ids.pottery}`, { token: tokens.editor })).body.status).toBe('draft');
  });

  it('saves nothing over a change made by someone else since the form was opened (If-Match)', async () => {
    const { page } = await open(MARCH, { token: tokens.editor });
    await page.locator('.fc-event', { hasText: 'Jazz Night' }).click();
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();

    const other = await api.post(`/events/${ids.jazzNight}`, { cost: '15' }, { token: tokens.editor });
    expect(other.status).toBe(200);
    await page.fill('#e-title', 'Jazz Night (moved)');
    await page.click('#e-save');

    await poll(() => page.locator('#form-error').textContent()).toContain('changed by someone else');
    const stored = (await api.get(`/events/${ids.jazzNight}`)).body;
    expect(stored.title).toBe('Jazz Night');
    expect(stored.cost_details.values).toEqual(['15']);
  });

  it("draws timed events at the viewer's time in the week and day views, all-day ones in the all-day row", async () => {
    const { page } = await open('/?view=timeGridWeek&date=2031-03-17');
    await poll(() => titles(page)).toContain('Spring Fair');
    // The week of 17–23 March: the fair (20–22) sits in the all-day row, across its three days.
    expect(await page.locator('.fc-daygrid-body .fc-event', { hasText: 'Spring Fair' }).count()).toBe(1);
    // Labels follow the browser's language (en-GB here; issue 29).
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('17 – 23 Mar 2031');

    const day = await open('/?view=timeGridDay&date=2031-03-13');
    const jazz = day.page.locator('.fc-timegrid-event', { hasText: 'Jazz Night' });
    await poll(() => jazz.count()).toBe(1);
    // 20:00–23:00 in New York is 01:00–04:00 in Berlin on the 13th.
    expect(await jazz.locator('.fc-event-time').textContent()).toBe('01:00 - 04:00');
  });

  it('follows next_rest_url: a month of more events than a page holds shows them all', async () => {
    const days = Array.from({ length: 56 }, (_, i) => i);
    for (let i = 0; i < days.length; i += 8)
      await Promise.all(
        days.slice(i, i + 8).map((n) =>
          created('/events', {
            title: `June Talk ${String(n + 1).padStart(2, '0')}`,
            start_date: `2031-06-${String((n % 28) + 1).padStart(2, '0')} ${n < 28 ? '10' : '15'}:00:00`,
            end_date: `2031-06-${String((n % 28) + 1).padStart(2, '0')} ${n < 28 ? '11' : '16'}:00:00`,
            timezone: 'UTC',
            status: 'publish',
          }),
        ),
      );
    const first = await api.get(
      '/events?ends_after=2031-05-31&starts_before=2031-07-01&strict_dates=true&per_page=50',
    );
    expect(first.body.total).toBe(56);
    expect(first.body.events).toHaveLength(50);
    expect(first.body.next_rest_url).toBeDefined();

    const { page } = await open('/?view=listMonth&date=2031-06-01');
    await poll(() => page.locator('.fc-list-event').count()).toBe(56);
    expect(await page.locator('#status').textContent()).toBe('56 events shown.');
  });

  it('fits a 360 px wide screen and opens on the list there', async () => {
    const { page } = await open('/?date=2031-03-01', { width: 360 });

    await poll(() => titles(page)).toContain('Jazz Night');
    expect(page.url()).toContain('view=listMonth');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('has only links that lead somewhere (a crawler follows them), a description, and compressed files', async () => {
    // Lighthouse's crawlable-anchors: an <a> without href in a page that listens to clicks fails,
    // unless it has a role or an id (a fragment target). Events link to their pages.
    const unlinked = `Array.from(document.querySelectorAll('#calendar a:not([href])'))
      .filter((a) => !a.getAttribute('role') && !a.id).map((a) => a.outerHTML.slice(0, 80))`;
    for (const path of [MARCH, '/?view=timeGridWeek&date=2031-03-10', '/?view=listMonth&date=2031-03-01']) {
      const { page } = await open(path);
      await poll(() => titles(page)).toContain('Jazz Night');
      expect({ path, unlinked: await page.evaluate(unlinked) }).toEqual({ path, unlinked: [] });
      const jazz = page.locator('a.fc-event, .fc-list-event-title a').filter({ hasText: 'Jazz Night' });
      expect(await jazz.first().getAttribute('href')).toBe('/event/jazz-night/');
    }
    // A plain click still opens the detail on the page.
    const { page } = await open(MARCH);
    await page.locator('a.fc-event', { hasText: 'Jazz Night' }).click();
    await poll(() => page.locator('#detail-title').textContent()).toBe('Jazz Night');
    expect(new URL(page.url()).pathname).toBe('/event/jazz-night/');
    expect(await page.locator('meta[name="description"]').getAttribute('content', { timeout: 1000 })).toMatch(
      /calendar of events/,
    );

    const js = await fetch(`${api.origin}/app.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(js.headers.get('vary')).toBe('Accept-Encoding');
    expect((await js.text()).length).toBeGreaterThan(Number(js.headers.get('content-length')));
  });

  it('has no serious accessibility violation (axe-core) in the month and list views', async () => {
    for (const path of [MARCH, '/?view=listMonth&date=2031-03-01', `${MARCH}&category=music`]) {
      const { page } = await open(path, { token: path === MARCH ? tokens.editor : undefined });
      await poll(() => page.locator('.fc-event').count()).toBeGreaterThan(0);
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
  });
});

describe.skipIf(skipBrowser)('the API explorer', () => {
  it('renders /doc and a "try it" call of the event list succeeds on the same origin', async () => {
    const context = await viewer(browser);
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${api.origin}/docs`);

    const op = page.locator('.opblock-get', { has: page.locator('[data-path="/events"]') }).first();
    await op.waitFor();
    expect(await page.locator('.servers select, .servers').first().textContent()).toContain(
      `${api.origin}/cal/events/v1/`,
    );
    await op.locator('.opblock-summary-control').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();

    const status = op.locator('.responses-table.live-responses-table .response .response-col_status');
    await poll(() => status.first().textContent(), 15_000).toContain('200');
    expect(await op.locator('.request-url pre, .request-url').first().textContent()).toContain(
      `${api.origin}/cal/events/v1/events`,
    );
    await screenshot(page, 'explorer', op);
    expect(errors).toEqual([]);
  }, 90_000);
});
