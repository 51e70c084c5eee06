import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';
import { creator, launch, screenshot, seriousViolations, skipBrowser, viewer, watchErrors } from './browser';

/**
 * Tickets on the calendar page (issue 42, docs/tickets.md "The calendar page"): registering from an
 * event's detail (errors announced, the confirmation with its code, the seats left going down, the
 * waitlist when the last seat goes meanwhile), and for editors the door's check-in on a phone (a typed
 * code, and a scanned one through a stand-in camera and BarcodeDetector) and the attendee list with its
 * search and CSV export, each on an address a reload returns to.
 */

const { api, tokens } = await useStack({ tokens: { editor: 'editor', author: ['author', 'user-author'] } });

let browser: Browser;
const contexts: BrowserContext[] = [];
const created = creator(api, tokens.editor);
const tickets = (path: string) => `${api.origin}/cal/tickets/v1${path}`;

/** Events of the file: a concert with an RSVP of 3 seats, a talk with a free ticket of 1 seat. */
let concert: Record<string, any>;
let concertTicket: Record<string, any>;
let talk: Record<string, any>;
let talkTicket: Record<string, any>;

beforeAll(async () => {
  if (skipBrowser) return;
  [, browser] = await Promise.all([ensureWebBuilt(), launch()]);
  concert = await created('/events', {
    title: 'Harbour Concert',
    status: 'publish',
    start_date: '2031-06-12 20:00:00',
    end_date: '2031-06-12 22:00:00',
    timezone: 'Europe/Berlin',
  });
  talk = await created('/events', {
    title: 'Library Talk',
    status: 'publish',
    start_date: '2031-06-14 18:00:00',
    end_date: '2031-06-14 19:00:00',
    timezone: 'Europe/Berlin',
  });
  concertTicket = await created(tickets('/tickets'), {
    post_id: concert.id,
    title: 'Standing',
    description: 'Doors at 19:30.',
    capacity: 3,
  });
  talkTicket = await created(tickets('/tickets'), {
    post_id: talk.id,
    provider: 'tickets',
    title: 'Seat',
    capacity: 1,
  });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

/** Registers through the API, as another visitor would: the 201's attendee with its token and code. */
async function registered(ticketId: number, name: string, email: string): Promise<Record<string, any>> {
  const res = await api.post(tickets('/attendees'), { ticket_id: ticketId, full_name: name, email });
  expect(res.status).toBe(201);
  return res.body;
}

/**
 * Opens a path in a fresh context (signed in with `token`; `init` run before the page's scripts), once
 * the calendar says how many events it shows.
 */
async function open(
  path: string,
  o: { token?: string; width?: number; init?: string } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await viewer(browser, o.width);
  contexts.push(context);
  if (o.token) await context.addInitScript(`sessionStorage.setItem('cal-token', ${JSON.stringify(o.token)})`);
  if (o.init) await context.addInitScript(o.init);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${api.origin}${path}`);
  await page
    .locator('#status')
    .filter({ hasText: /shown\.$/ })
    .waitFor();
  return { page, errors };
}

const poll = <T>(fn: () => Promise<T> | T, timeout = 15_000) => expect.poll(fn, { timeout });
const pathOf = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};
const eventPath = (e: Record<string, any>) => new URL(e.url).pathname;
const seats = (page: Page, ticketId: number) =>
  page.locator(`#detail [data-ticket-id="${ticketId}"] [data-role="seats"]`).textContent();
const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id');

describe.skipIf(skipBrowser)("an event's tickets in its detail", () => {
  it('registers a visitor: errors told and tied to their fields, then the confirmation, and one seat fewer', async () => {
    const { page, errors } = await open(eventPath(concert));
    await poll(() => seats(page, concertTicket.id)).toBe('3 seats left');
    const form = page.locator('#detail-register');
    expect(await form.locator('#dr-submit').textContent()).toBe('Send my answer');
    expect(await page.locator('#detail .ticket-about').textContent()).toBe('Doors at 19:30.');

    // Nothing typed: every problem at once, the first field focused, each message tied to its field.
    await form.locator('#dr-submit').click();
    await poll(() => focusedId(page)).toBe('dr-full_name');
    expect(await page.locator('#detail-register-error').textContent()).toBe(
      'Please check the fields marked below.',
    );
    expect(await page.locator('#detail-register-error').getAttribute('role')).toBe('alert');
    expect(await page.locator('#dr-full_name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#dr-full_name').getAttribute('aria-describedby')).toBe('dr-full_name-error');
    expect(await page.locator('#dr-email').getAttribute('aria-describedby')).toBe(
      'dr-email-error dr-email-hint',
    );
    expect(await page.locator('#dr-email-error').textContent()).toBe(
      'Enter your e-mail address: the confirmation goes there.',
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#dr-full_name', 'Ann Lee');
    await page.fill('#dr-email', 'ann@example.org');
    await form.locator('#dr-submit').click();
    const done = page.locator('#detail [data-role="confirmation"]');
    await poll(() => done.locator('h4').textContent()).toBe('You are registered');
    await poll(() => focusedId(page)).toBe('detail-register-done');
    expect(await form.isHidden()).toBe(true);
    const text = (await done.textContent()) ?? '';
    expect(text).toMatch(/A seat is yours\./);
    expect(text).toMatch(/A confirmation is on its way to ann@example\.org\./);
    const number = /Attendee number: (\d+)/.exec(text)![1]!;
    const code = /Security code: ([0-9a-f]+)/.exec(text)![1]!;
    // The self-service link carries the registration's secret (the attendee's own page).
    const link = (await done.locator('[data-role="self-service"]').getAttribute('href'))!;
    expect(link).toMatch(new RegExp(`^/attendee/${number}/\\?token=[\\w%-]+$`));
    await poll(() => seats(page, concertTicket.id)).toBe('2 seats left');
    // The code shown is the one the door checks.
    const checked = await api.post(
      tickets('/qr'),
      { ticket_id: Number(number), security_code: code, event_id: concert.id },
      { token: tokens.editor },
    );
    expect(checked.status).toBe(201);
    await screenshot(page, 'ticket-registered');
    expect(await seriousViolations(page)).toEqual([]);

    // Someone else, answering not going: no seat taken.
    await done.locator('#dr-again').click();
    await poll(() => focusedId(page)).toBe('dr-full_name');
    expect(await page.inputValue('#dr-full_name')).toBe('');
    await page.fill('#dr-full_name', 'Bob Stone');
    await page.fill('#dr-email', 'bob@example.org');
    await page.check('#dr-attendee_status-not-going');
    await form.locator('#dr-submit').click();
    await poll(() => done.locator('h4').textContent()).toBe('Your answer is recorded');
    expect(await done.textContent()).not.toMatch(/Security code/);
    expect(await seats(page, concertTicket.id)).toBe('2 seats left');
    expect(errors).toEqual([]);
  });

  it('offers the waitlist when the last seat goes meanwhile, and joins it', async () => {
    const { page, errors } = await open(eventPath(talk));
    await poll(() => seats(page, talkTicket.id)).toBe('1 seat left');
    await page.fill('#dr-full_name', 'Cleo Park');
    await page.fill('#dr-email', 'cleo@example.org');
    // Another visitor takes the last seat first.
    await registered(talkTicket.id, 'Dan Fox', 'dan@example.org');

    await page.click('#dr-submit');
    await poll(() => page.locator('#detail-register-error').textContent()).toMatch(
      /The last seat was just taken/,
    );
    await poll(() => seats(page, talkTicket.id)).toBe('Sold out');
    expect(await page.locator('#dr-submit').textContent()).toBe('Join the waitlist');
    expect(await page.locator('[data-role="waitlist-note"]').textContent()).toMatch(/Seat is sold out/);
    expect(await page.inputValue('#dr-email')).toBe('cleo@example.org');

    await page.click('#dr-submit');
    const done = page.locator('#detail [data-role="confirmation"]');
    await poll(() => done.locator('h4').textContent()).toBe('You are on the waitlist');
    expect(await done.textContent()).not.toMatch(/Security code/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** A stand-in camera and QR detector: the detector reads `window.scanValue` from any frame. */
const FAKE_SCANNER = `
  window.BarcodeDetector = class {
    static async getSupportedFormats() { return ['qr_code']; }
    async detect() { return window.scanValue ? [{ rawValue: window.scanValue }] : []; }
  };
  const camera = async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 32; canvas.height = 32;
    canvas.getContext('2d').fillRect(0, 0, 32, 32);
    return canvas.captureStream(5);
  };
  if (navigator.mediaDevices) navigator.mediaDevices.getUserMedia = camera;
  else Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: camera } });
`;

describe.skipIf(skipBrowser)('the check-in at the door', () => {
  it('checks an attendee in by the typed number and code on a phone, on an address a reload returns to', async () => {
    const eve = await registered(concertTicket.id, 'Eve Marsh', 'eve@example.org');
    const { page, errors } = await open(`${eventPath(concert)}?manage=check-in`, {
      token: tokens.editor,
      width: 390,
    });
    const view = page.locator('#manage');
    await poll(() => view.getAttribute('data-view')).toBe('check-in');
    expect(await page.locator('#manage-title').textContent()).toBe('Check-in');
    expect(await page.locator('#manage-event').textContent()).toBe('Harbour Concert');
    expect(pathOf(page)).toBe(`${eventPath(concert)}?manage=check-in`);
    await poll(() => focusedId(page)).toBe('ci-id');
    // Ann is in already (the first test); Eve is going.
    await poll(() => page.locator('#check-in-counts').textContent()).toBe('1 of 2 going checked in.');
    // No camera scanning where the browser has no BarcodeDetector (this Chromium on Linux).
    expect(await page.locator('#ci-scan').count()).toBe(0);

    const result = page.locator('#check-in-result');
    await page.fill('#ci-id', String(eve.id));
    await page.fill('#ci-code', eve.security_code);
    await page.press('#ci-code', 'Enter');
    await poll(() => result.getAttribute('data-kind')).toBe('checked-in');
    expect(await result.textContent()).toBe('Checked inEve Marsh (attendee ' + eve.id + '): welcome.');
    expect(await result.getAttribute('aria-live')).toBe('assertive');
    expect(await page.inputValue('#ci-id')).toBe('');
    await poll(() => focusedId(page)).toBe('ci-id');
    await poll(() => page.locator('#check-in-counts').textContent()).toBe('2 of 2 going checked in.');
    await screenshot(page, 'check-in-phone');
    expect(await seriousViolations(page)).toEqual([]);

    // The same code again, a wrong code, an unknown number, a malformed one.
    await page.fill('#ci-id', String(eve.id));
    await page.fill('#ci-code', eve.security_code);
    await page.click('#ci-submit');
    await poll(() => result.getAttribute('data-kind')).toBe('already');
    expect(await result.locator('.check-title').textContent()).toBe('Already checked in');
    await page.fill('#ci-code', '0000000000');
    await page.click('#ci-submit');
    await poll(() => result.getAttribute('data-kind')).toBe('invalid');
    await page.fill('#ci-id', '999999');
    await page.click('#ci-submit');
    await poll(() => result.getAttribute('data-kind')).toBe('not-found');
    expect(await result.textContent()).toMatch(/No attendee has the number 999999/);
    await page.fill('#ci-id', 'abc');
    await page.click('#ci-submit');
    await poll(() => result.locator('.check-title').textContent()).toBe('Type both');
    expect(await seriousViolations(page)).toEqual([]);

    // Closing the view leaves its address for the event's, the detail open under it.
    await page.keyboard.press('Escape');
    await poll(() => pathOf(page)).toBe(eventPath(concert));
    expect(await page.locator('#detail-title').textContent()).toBe('Harbour Concert');
    expect(errors).toEqual([]);
  });

  it('checks in a scanned QR code where the browser offers a detector and a camera', async () => {
    const fay = await registered(concertTicket.id, 'Fay Quinn', 'fay@example.org');
    const { page, errors } = await open(`${eventPath(concert)}?manage=check-in`, {
      token: tokens.editor,
      width: 390,
      init: FAKE_SCANNER,
    });
    await page.locator('#ci-scan').click();
    await poll(() => page.locator('#ci-scan').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#ci-video').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // The confirmation's QR code: the check-in address with the attendee, event and code.
    const qr = `${api.origin}/cal/tickets/v1/qr?ticket_id=${fay.id}&event_id=${concert.id}&security_code=${fay.security_code}`;
    await page.evaluate(`window.scanValue = ${JSON.stringify(qr)}`);
    const result = page.locator('#check-in-result');
    await poll(() => result.getAttribute('data-kind')).toBe('checked-in');
    expect(await result.textContent()).toMatch(/Fay Quinn/);
    // Still in front of the camera: not sent again, so not "already checked in".
    await new Promise((r) => setTimeout(r, 1000));
    expect(await result.getAttribute('data-kind')).toBe('checked-in');
    const read = await api.get(tickets(`/attendees/${fay.id}`), { token: tokens.editor });
    expect(read.body.checked_in).toBe(true);

    await page.locator('#ci-scan').click();
    await poll(() => page.locator('#ci-video').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(skipBrowser)("an event's attendee list", () => {
  it('lists the attendees from the detail’s link, searches them, exports CSV, and Back closes it', async () => {
    const { page, errors } = await open(eventPath(concert), { token: tokens.editor });
    const link = page.locator('#detail [data-manage="attendees"]');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${eventPath(concert)}?manage=attendees`);
    await link.click();
    await poll(() => pathOf(page)).toBe(`${eventPath(concert)}?manage=attendees`);
    const count = page.locator('#al-count');
    // Ann, Bob (not going), Eve and Fay of the tests before.
    await poll(() => count.textContent()).toBe('4 attendees.');
    const names = () => page.locator('#al-table tbody td:first-child').allTextContents();
    expect(await names()).toEqual(['Ann Lee', 'Bob Stone', 'Eve Marsh', 'Fay Quinn']);
    expect(await page.locator('#al-table tbody tr').first().textContent()).toMatch(
      /Ann Leeann@example\.orgStandingGoingYes/,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#al-search', 'EXAMPLE.org marsh');
    await poll(() => names()).toEqual(['Eve Marsh']);
    expect(await count.textContent()).toBe('1 of 4 attendees shown.');
    await page.fill('#al-search', 'nobody');
    await poll(() => count.textContent()).toBe('No attendee matches “nobody” (of 4 attendees).');
    await page.fill('#al-search', '');
    await poll(() => names()).toHaveLength(4);

    // Export: GET /attendees?post_id=&format=csv with the tab's token, saved as a file. The API's own
    // CSV is the tickets service's (its integration tests); here a stand-in answer shows what the page
    // sends and that it saves what comes back.
    const sent: Array<{ url: string; authorization?: string; accept?: string }> = [];
    await page.route('**/cal/tickets/v1/attendees?*format=csv*', async (route) => {
      const headers = route.request().headers();
      sent.push({ url: route.request().url(), authorization: headers.authorization, accept: headers.accept });
      await route.fulfill({
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        body: 'id,name,email\r\n1,Ann Lee,ann@example.org\r\n',
      });
    });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#al-export')]);
    expect(download.suggestedFilename()).toBe('attendees-harbour-concert.csv');
    const saved = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(saved, 'utf8')).toBe('id,name,email\r\n1,Ann Lee,ann@example.org\r\n');
    expect(sent).toEqual([
      {
        url: `${api.origin}/cal/tickets/v1/attendees?post_id=${concert.id}&format=csv`,
        authorization: `Bearer ${tokens.editor}`,
        accept: 'text/csv',
      },
    ]);
    await poll(() => page.locator('#notice').textContent()).toBe('Saved attendees-harbour-concert.csv.');

    // Back closes the list; the event's detail stays open under it.
    await page.goBack();
    await poll(() => page.locator('#manage').evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(
      false,
    );
    expect(pathOf(page)).toBe(eventPath(concert));
    expect(await page.locator('#detail-title').textContent()).toBe('Harbour Concert');
    // Forward opens it again.
    await page.goForward();
    await poll(() => count.textContent()).toBe('4 attendees.');
    expect(errors).toEqual([]);
  });

  it('is offered only to those who manage the attendees', async () => {
    const { page } = await open(eventPath(concert));
    await poll(() => seats(page, concertTicket.id)).toMatch(/left|Sold out/);
    expect(await page.locator('#detail [data-manage]').count()).toBe(0);
    // An author, of other events than this one (the editor made it).
    const author = await open(eventPath(concert), { token: tokens.author });
    await poll(() => seats(author.page, concertTicket.id)).toMatch(/left|Sold out/);
    expect(await author.page.locator('#detail [data-manage]').count()).toBe(0);

    // A visitor at the view's address gets the event, and a word on who may see the view.
    const direct = await open(`${eventPath(concert)}?manage=attendees`);
    await poll(() => direct.page.locator('#notice').textContent()).toBe(
      'Sign in as an editor or as the event’s author to see its attendees.',
    );
    expect(await direct.page.locator('#detail-title').textContent()).toBe('Harbour Concert');
    expect(
      await direct.page.locator('#manage').evaluate((d) => (d as unknown as { open: boolean }).open),
    ).toBe(false);
  });
});
