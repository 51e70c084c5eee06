import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureWebBuilt } from '../../web/build';
import { useStack } from '../support/use-stack';
import {
  eventTitles as titles,
  launch,
  openCalendar,
  seriousViolations,
  creator,
  skipBrowser,
} from './browser';

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
const ids: Record<string, number> = {};

const create = creator(api, tokens.editor);
const created = async (path: string, body: unknown): Promise<number> =>
  (await create(path, body)).id as number;

beforeAll(async () => {
  if (skipBrowser) return;
  [, browser] = await Promise.all([ensureWebBuilt(), launch()]);
  ids.music = await created('/categories', { name: 'Music' });
  ids.jazz = await created('/categories', { name: 'Jazz', parent: ids.music });
  ids.theatre = await created('/categories', { name: 'Theatre' });
  ids.outdoor = await created('/tags', { name: 'Outdoor' });
  ids.family = await created('/tags', { name: 'Family friendly' });
  ids.trust = await created('/organizers', { organizer: 'Harbour Trust' });
  ids.owls = await created('/organizers', { organizer: 'Night Owls' });
  ids.parade = await created('/events', {
    title: 'Lantern Parade',
    status: 'publish',
    start_date: '2032-05-26 21:00:00',
    end_date: '2032-05-26 22:30:00',
    timezone: 'Europe/Berlin',
  });
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

/** The messages the form shows under its fields, by field. */
async function fieldErrors(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of await page.locator('#event-form .field-error').all())
    out[(await p.getAttribute('id'))!.replace(/^err-/, '')] = (await p.textContent())!;
  return out;
}

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

  it('picks organizers, categories and tags by typing, from the keyboard, and removes them by their chips', async () => {
    const { page, errors } = await open('/?date=2032-05-01', tokens.editor);
    await page.click('#new-event');
    await page.fill('#e-title', 'Jazz on the Quay');
    await page.fill('#e-start', '2032-05-20T19:00');
    await page.fill('#e-end', '2032-05-20T21:00');

    // The label names the box; typing filters the list, Enter picks the first match.
    await page.getByRole('combobox', { name: 'Categories', exact: true }).fill('ja');
    const list = page.getByRole('listbox', { name: 'Categories' });
    expect(await list.getByRole('option').allTextContents()).toEqual(['\u2003↳ Jazz']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    expect(await list.getByRole('option', { name: 'Jazz' }).getAttribute('aria-selected')).toBe('true');
    // A pick empties the box: the whole list again, at Jazz; ↓ and Space pick the next one.
    expect(await list.getByRole('option').allTextContents()).toEqual(['Music', '\u2003↳ Jazz', 'Theatre']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    const chips = page.locator('[data-field="categories"] .chip');
    expect(await chips.allTextContents()).toEqual(['Remove Jazz ×', 'Remove Theatre ×']);
    // Escape closes the list and leaves the form open.
    await page.keyboard.press('Escape');
    expect(await list.isVisible()).toBe(false);
    expect(await page.locator('#editor').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Remove Theatre' }).click();
    expect(await chips.allTextContents()).toEqual(['Remove Jazz ×']);

    // Spaces in a name are typed, not picks; a click picks too.
    const tags = page.getByRole('combobox', { name: 'Tags', exact: true });
    await tags.pressSequentially('family fr');
    expect(await tags.inputValue()).toBe('family fr');
    await page
      .getByRole('listbox', { name: 'Tags' })
      .getByRole('option', { name: 'Family friendly' })
      .click();
    await page.getByRole('combobox', { name: 'Organizers', exact: true }).fill('trust');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Organizers', exact: true }).fill('night');
    await page.keyboard.press('Enter');
    // Backspace in the empty box removes the last chip.
    const organizers = page.locator('[data-field="organizer"] .chip');
    const both = await organizers.allTextContents();
    expect(both.toSorted()).toEqual(['Remove Harbour Trust ×', 'Remove Night Owls ×']);
    await page.keyboard.press('Backspace');
    expect(await organizers.allTextContents()).toEqual(both.slice(0, 1));
    const kept = both[0] === 'Remove Harbour Trust ×' ? ids.trust : ids.owls;
    await page.keyboard.press('Escape');
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Jazz on the Quay');

    const saved = (await listed('2032-05-20')).find((e) => e.title === 'Jazz on the Quay')!;
    const idsOf = (v: unknown) => (v as Array<{ id: number }>).map((x) => x.id);
    expect(idsOf(saved.categories)).toEqual([ids.jazz]);
    expect(idsOf(saved.tags)).toEqual([ids.family]);
    expect(idsOf(saved.organizer)).toEqual([kept]);

    // Editing it shows its choices as chips.
    await page.locator('.fc-event', { hasText: 'Jazz on the Quay' }).click();
    await page.locator('#detail-actions button', { hasText: 'Edit' }).click();
    expect(await chips.allTextContents()).toEqual(['Remove Jazz ×']);
    expect(await page.locator('[data-field="tags"] .chip').allTextContents()).toEqual([
      'Remove Family friendly ×',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows every field error at once and takes each away when its field is fixed', async () => {
    const { page, errors } = await open('/?date=2032-05-01', tokens.editor);
    const posts: string[] = [];
    page.on('request', (r) => void (r.method() === 'POST' && posts.push(r.url())));
    await page.click('#new-event');
    await page.fill('#e-title', '');
    await page.fill('#e-start', '2032-05-21T20:00');
    await page.fill('#e-end', '2032-05-21T18:00');
    await page.fill('#e-timezone', 'Mars/Olympus');
    await page.fill('#e-website', 'ftp://files.example.org/regatta');
    await page.click('#e-save');

    // The form's own checks: all four at once, and nothing sent.
    await poll(() => fieldErrors(page)).toEqual({
      title: 'title must not be empty.',
      end_date: 'end_date must not be before start_date.',
      timezone: 'timezone "Mars/Olympus" is not an IANA time zone or UTC±N.',
      website: 'website must be an http or https URL.',
    });
    expect(posts).toEqual([]);
    expect(await page.locator('#form-error').textContent()).toBe('Nothing was saved: 4 fields to correct.');
    expect(await page.evaluate('document.activeElement?.id')).toBe('e-title');
    expect(await page.locator('#e-website').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    // Each goes when its field is fixed; an earlier start fixes the end.
    await page.fill('#e-title', 'Regatta');
    expect(Object.keys(await fieldErrors(page))).toEqual(['end_date', 'timezone', 'website']);
    await page.fill('#e-start', '2032-05-21T17:00');
    expect(Object.keys(await fieldErrors(page))).toEqual(['timezone', 'website']);
    await page.fill('#e-website', 'https://regatta.example.org/');
    expect(await page.locator('#e-website').getAttribute('aria-invalid')).toBeNull();
    await page.fill('#e-timezone', 'Europe/Berlin');
    expect(await fieldErrors(page)).toEqual({});
    expect(await page.locator('#form-error').isVisible()).toBe(false);

    // The API's refusal naming two fields shows both; changing one takes its message away.
    await page.fill('#e-title', 'R'.repeat(1001));
    await page.fill('#e-cost', '9'.repeat(2001));
    await page.click('#e-save');
    await poll(async () => Object.keys(await fieldErrors(page)).sort()).toEqual(['cost', 'title']);
    expect((await fieldErrors(page)).title).toBe('title must be at most 1000 characters long.');
    await page.fill('#e-cost', '5');
    expect(Object.keys(await fieldErrors(page))).toEqual(['title']);
    await page.fill('#e-title', 'Regatta');
    expect(await fieldErrors(page)).toEqual({});
    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Regatta');
    expect(errors).toEqual([]);
  });

  it('asks before trashing an event and offers to undo it', async () => {
    const { page, errors } = await open('/?date=2032-05-01', tokens.editor);
    const status = async () => (await api.get(`/events/${ids.parade}`, { token: tokens.editor })).body.status;
    const trash = async () => {
      await page.locator('.fc-event', { hasText: 'Lantern Parade' }).click();
      await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    };

    await trash();
    const confirm = page.getByRole('dialog', { name: 'Move to the trash?' });
    await confirm.waitFor();
    expect(await confirm.locator('#trash-question').textContent()).toMatch(
      /^“Lantern Parade” goes to the trash/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await status()).toBe('publish');

    // The detail is still open: its button asks again.
    await page.locator('#detail-actions button', { hasText: 'Move to trash' }).click();
    await confirm.getByRole('button', { name: 'Move to trash' }).click();
    await poll(() => titles(page)).not.toContain('Lantern Parade');
    expect(await status()).toBe('trash');
    const bar = page.locator('#undo-bar');
    expect(await bar.textContent()).toBe('“Lantern Parade” moved to the trash. Undo');
    // The focus waits on Undo (the detail it was in is gone).
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Undo');
    expect(await seriousViolations(page)).toEqual([]);

    await page.keyboard.press('Enter');
    await poll(() => bar.textContent()).toBe('“Lantern Parade” is back (Published).');
    expect(await status()).toBe('publish');
    await poll(() => titles(page)).toContain('Lantern Parade');
    expect(errors).toEqual([]);
  });

  it('creates a venue and an organizer from the form, showing their errors, and selects them', async () => {
    const { page, errors } = await open('/?date=2032-05-01', tokens.editor);
    await page.click('#new-event');
    await page.fill('#e-title', 'Boat Show');
    await page.fill('#e-start', '2032-05-27T10:00');
    await page.fill('#e-end', '2032-05-27T16:00');

    await page.getByRole('button', { name: 'New venue…' }).click();
    const venue = page.getByRole('dialog', { name: 'New venue' });
    await venue.getByRole('button', { name: 'Add venue' }).click();
    await poll(() => venue.locator('.field-error').textContent()).toBe('venue must not be empty.');
    expect(await seriousViolations(page)).toEqual([]);
    await venue.getByLabel('Name (required)').fill('Dock Hall');
    await venue.getByLabel('City').fill('Hamburg');
    await venue.getByRole('button', { name: 'Add venue' }).click();
    await venue.waitFor({ state: 'hidden' });
    expect(await page.locator('#e-venue option:checked').textContent()).toBe('Dock Hall');

    await page.getByRole('button', { name: 'New organizer…' }).click();
    const organizer = page.getByRole('dialog', { name: 'New organizer' });
    await organizer.getByLabel('Name (required)').fill('Quay Crew');
    await organizer.getByLabel('E-mail').fill('not-an-address');
    await organizer.getByRole('button', { name: 'Add organizer' }).click();
    await poll(() => organizer.locator('.field-error').textContent()).toBe(
      'email must be an e-mail address.',
    );
    await organizer.getByLabel('E-mail').fill('crew@example.org');
    await organizer.getByRole('button', { name: 'Add organizer' }).click();
    await organizer.waitFor({ state: 'hidden' });
    expect(await page.locator('[data-field="organizer"] .chip').allTextContents()).toEqual([
      'Remove Quay Crew ×',
    ]);

    await page.click('#e-save');
    await poll(() => titles(page)).toContain('Boat Show');
    const saved = (await listed('2032-05-27')).find((e) => e.title === 'Boat Show')!;
    expect(saved.venue as { venue: string; city: string }).toMatchObject({
      venue: 'Dock Hall',
      city: 'Hamburg',
    });
    expect((saved.organizer as Array<{ organizer: string }>).map((o) => o.organizer)).toEqual(['Quay Crew']);
    expect(errors).toEqual([]);
  });
});
