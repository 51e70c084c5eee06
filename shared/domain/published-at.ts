import { nowDates } from './clock';
import type * as PublicationDates from './publication-dates';

/**
 * A write that sends no `date` / `date_utc` is dated now, which clock.ts shows without luxon (the same
 * values as publication-dates.ts: test/unit/publication-now.test.ts). So the luxon-based parser is
 * loaded only by a body that sends one, on its first such request, instead of at every write
 * function's cold start (issue 9), as text.ts's htmlReady loads the sanitizer.
 */
let parser: typeof PublicationDates | undefined;

type Dated = { date?: unknown; date_utc?: unknown };

const given = (v: unknown) => v !== undefined && v !== null && v !== '';
/** Does publicationDates read a date from the body rather than take now? */
const sendsDate = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  (given((body as Dated).date) || given((body as Dated).date_utc));

/** Loads the date parser when the body sends a date. */
export async function datesReady(body: unknown): Promise<void> {
  if (!parser && sendsDate(body)) parser = await import('./publication-dates');
}

/** Publication dates (site zone and UTC) from the body's `date` or `date_utc`, or `at` when it sends neither. */
export function publishedAt(body: Dated, at: Date): { date: string; date_utc: string } {
  if (!sendsDate(body)) return nowDates(at);
  if (!parser) throw new Error('a date before datesReady(body) loaded its parser');
  return parser.sitePublicationDates(body, at);
}
