import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueMail } from '../../shared/services/tickets';
import { ensureWebBuilt } from '../../web/build';
import { readOutbox } from '../support/outbox';
import { useStack } from '../support/use-stack';
import { creator, launch, screenshot, seriousViolations, skipBrowser, watchErrors } from './browser';

/**
 * The tickets' pages in Chromium (docs/tickets.md, "Pages"; issue 42): registering from an event's
 * page with the script turned off (a context with javaScriptEnabled: false) from the form to the
 * attendee's own page, the seats left going down and the mail in the outbox; a refused form's errors;
 * cancelling from the attendee's page; axe on each page. The HTTP answers are
 * test/integration/ticket-pages.test.ts's.
 */

const outbox = await mkdtemp(join(tmpdir(), 'outbox-'));
process.env.CAL_OUTBOX_DIR = outbox;
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

let browser: Browser;
const contexts: BrowserContext[] = [];
let event: Record<string, any>;
let entry: Record<string, any>;

beforeAll(async () => {
  if (skipBrowser) return;
  await Promise.all([ensureWebBuilt(), launch().then((b) => (browser = b))]);
  const created = creator(api, tokens.editor);
  event = await created('/events', {
    title: 'Harbour Concert',
    status: 'publish',
    start_date: '2031-05-01 19:00:00',
    end_date: '2031-05-01 21:00:00',
    timezone: 'Europe/London',
  });
  entry = await created(`${api.origin}/cal/tickets/v1/tickets`, {
    post_id: event.id,
    title: 'Entry',
    provider: 'tickets',
    capacity: 3,
  });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
});

const eventPath = () => new URL(event.url).pathname;

/**
 * A page in a fresh context. `script`: 'off' turns JavaScript off (what is tested: the pages work
 * without it); 'no-app' keeps it on for axe but never loads the calendar app, so the page is as a
 * visitor without the app sees it; 'app' is the calendar as it runs.
 */
async function open(path: string, script: 'off' | 'no-app' | 'app'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
    javaScriptEnabled: script !== 'off',
  });
  contexts.push(context);
  if (script === 'no-app') await context.route('**/app.js', (r) => r.abort());
  const page = await context.newPage();
  await page.goto(`${api.origin}${path}`);
  return page;
}

const seatsLeft = (page: Page) => page.locator(`#ticket-${entry.id} [data-role="seats-left"]`).textContent();

async function fillAndSend(page: Page, name: string, email: string): Promise<void> {
  const ticket = page.locator(`#ticket-${entry.id}`);
  await ticket.getByLabel('Your name (required)').fill(name);
  await ticket.getByLabel('E-mail address (required)').fill(email);
  await ticket.getByRole('button', { name: 'Register' }).click();
}

describe.skipIf(skipBrowser)('registering without a script', () => {
  it('goes from the form to the attendee page; the seats left go down and the confirmation with its link is in the outbox', async () => {
    const page = await open(eventPath(), 'off');
    expect(await seatsLeft(page)).toBe('3 of 3 seats left');

    await fillAndSend(page, 'Ada Lovelace', 'ada@example.org');
    await page.waitForURL(/\/attendee\/\d+\/\?token=[\w-]+&done=registered$/);
    expect(await page.locator('h1').textContent()).toBe('Your registration');
    expect(await page.locator('[data-role="done"]').textContent()).toContain('your registration is recorded');
    expect(await page.locator('[data-role="status"]').textContent()).toBe('You are going: a seat is yours.');
    expect(await page.locator('[data-role="security-code"]').textContent()).toMatch(/^[0-9a-f]{10}$/);
    expect(await page.getByRole('img', { name: 'QR code to check in at the door' }).isVisible()).toBe(true);
    await screenshot(page, 'attendee-page');
    const id = /\/attendee\/(\d+)\//.exec(page.url())![1];

    await page.goto(`${api.origin}${eventPath()}`);
    expect(await seatsLeft(page)).toBe('2 of 3 seats left');

    await sendDueMail();
    const mail = (await readOutbox(outbox)).find((m) => m.name === `attendee-${id}-confirmation.eml`)!;
    expect(mail.headers.to).toBe('"Ada Lovelace" <ada@example.org>');
    const link = /^http:\/\/calendar\.test(\/attendee\/\d+\/\?token=[\w-]+)$/m.exec(mail.parts[0]!.body)![1]!;
    // The mail's link (SITE_URL is another host in the tests) opens the same page.
    await page.goto(`${api.origin}${link}`);
    expect(await page.locator('[data-role="name"]').textContent()).toBe('Ada Lovelace');
    expect(await page.locator('[data-role="done"]').count()).toBe(0);
  });

  it('shows a refused form again with the error summary focused, each message tied to its field', async () => {
    const page = await open(eventPath(), 'off');
    await fillAndSend(page, 'Grace Hopper', 'grace-at-example');
    await page.waitForURL(/\/register\/$/);
    expect(await page.title()).toBe('Error: Harbour Concert – Event calendar');
    expect(await page.locator(':focus').getAttribute('id')).toBe(`register-${entry.id}-problems`);
    const email = page.locator(`#ticket-${entry.id}`).getByLabel('E-mail address (required)');
    expect(await email.inputValue()).toBe('grace-at-example');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const described = (await email.getAttribute('aria-describedby'))!.split(' ');
    const texts = await Promise.all(described.map((d) => page.locator(`#${d}`).textContent()));
    expect(texts).toContain('Error: Enter an e-mail address in the form name@example.org.');
    await screenshot(page, 'ticket-form-error');
    // The summary's link leads to the field.
    await page.getByRole('link', { name: 'Enter an e-mail address in the form name@example.org.' }).click();
    expect(await page.locator(':target').getAttribute('name')).toBe('email');
    expect(await seatsLeft(page)).toBe('2 of 3 seats left');
  });

  it('cancels from the attendee page after asking; the seat is free again', async () => {
    const page = await open(eventPath(), 'off');
    await fillAndSend(page, 'Alan Turing', 'alan@example.org');
    await page.waitForURL(/\/attendee\//);
    await page.getByRole('link', { name: 'Cancel my registration…' }).click();
    expect(await page.locator('h1').textContent()).toBe('Cancel your registration?');
    await page.getByRole('button', { name: 'Yes, cancel my registration' }).click();
    await page.waitForURL(/done=cancelled$/);
    expect(await page.locator('[data-role="status"]').textContent()).toBe('This registration is cancelled.');
    expect(await page.getByRole('link', { name: 'Cancel my registration…' }).count()).toBe(0);
    await page.goto(`${api.origin}${eventPath()}`);
    expect(await seatsLeft(page)).toBe('2 of 3 seats left');
  });
});

describe.skipIf(skipBrowser)("the tickets' pages and axe", () => {
  it('finds no serious violation on the event page (with and without the app), the refused form, the attendee page and the question', async () => {
    const withApp = await open(eventPath(), 'app');
    const errors = watchErrors(withApp);
    await expect
      .poll(() => withApp.locator('#detail-title').textContent(), { timeout: 10_000 })
      .toBe('Harbour Concert');
    expect(await seriousViolations(withApp)).toEqual([]);
    expect(errors).toEqual([]);

    const page = await open(eventPath(), 'no-app');
    expect(await seriousViolations(page)).toEqual([]);
    await fillAndSend(page, '', '');
    await page.waitForURL(/\/register\/$/);
    expect(await page.locator('.error-summary li').count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await fillAndSend(page, 'Edsger Dijkstra', 'edsger@example.org');
    await page.waitForURL(/\/attendee\//);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Cancel my registration…' }).click();
    await page.waitForURL(/\/cancel\//);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
