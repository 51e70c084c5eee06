import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { Stack } from '../support/stack';

/**
 * Headless Chromium from the system's packages (Debian's `chromium`), driven by playwright-core: no
 * browser download. CHROMIUM_PATH points elsewhere (e.g. a Chrome on a developer's machine).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/**
 * Without Chromium the browser tests are skipped with a message, except in CI (`CI` set, as .ci/run
 * does), where CI installs it and a missing browser must fail the run.
 */
export const skipBrowser = !hasChromium && !process.env.CI;
if (skipBrowser)
  console.warn(
    `Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`,
  );
export const RESULTS = resolve(import.meta.dirname, '..', '..', 'test-results');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launch(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A fresh context (own storage) as a viewer in Berlin: the tests' events are in other zones. */
export function viewer(browser: Browser, width = 1280): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width, height: 900 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
  });
}

/** Saves a screenshot (the full page, or one element of it) under test-results/ (git-ignored) for a reviewer. */
export async function screenshot(page: Page, name: string, element?: Locator): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  if (element) await element.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

const axeSource = readFileSync(
  join(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Runs axe-core (WCAG 2.x A and AA rules) in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  // Evaluated as a string: the test program has no DOM types, and this runs in the page.
  const violations = (await page.evaluate(`(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  })()`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Collects what the page logs as errors (uncaught exceptions, console errors) for assertions. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The API's 4xx answers the page shows (a refused form) are logged by Chromium as failed loads.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/**
 * Opens a path of the calendar page in a fresh context (own session storage, kept in `contexts` for
 * the caller to close), signed in when a token is given, once the page says how many events it shows.
 */
export async function openCalendar(
  browser: Browser,
  contexts: BrowserContext[],
  url: string,
  o: { token?: string; width?: number } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await viewer(browser, o.width);
  contexts.push(context);
  // A string, run in the page before its scripts (the test program has no DOM types).
  if (o.token) await context.addInitScript(`sessionStorage.setItem('cal-token', ${JSON.stringify(o.token)})`);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page
    .locator('#status')
    .filter({ hasText: /shown\.$/ })
    .waitFor();
  return { page, errors };
}

/** The titles of the events the calendar draws, in the grid views and the list view (its link: the venue follows). */
export const eventTitles = async (page: Page): Promise<string[]> =>
  (await page.locator('.fc-event .fc-event-title, .fc-list-event-title a').allTextContents()).map((t) =>
    t.trim(),
  );

/** The seeding of a browser test: POSTs as `token`, stopping the setup with the API's answer on anything but 201. */
export function creator(api: Pick<Stack, 'post'>, token: string) {
  return async (path: string, body: unknown): Promise<Record<string, any>> => {
    const res = await api.post(path, body, { token });
    if (res.status !== 201) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
}
