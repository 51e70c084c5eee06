import { nowDates } from './clock';
import type * as PublicationDates from './publication-dates';

/**
 * A write that sends no `date` / `date_utc` is dated now, which clock.ts shows without luxon (the same
 * values as publication-dates.ts: test/unit/publication-now.test.ts). So the luxon-based parser is
 * loaded only for a body that sends one, on its first such request, instead of at every write
 * function's cold start (issue 9): shared/http/lazy-parts.ts loads it before the service runs and hands
 * it over here.
 */
let parser: typeof PublicationDates | undefined;

type Dated = { date?: unknown; date_utc?: unknown };

const given = (v: unknown) => v !== undefined && v !== null && v !== '';
/** Does publicationDates read a date from the body rather than take now? */
const sendsDate = (body: Dated): boolean => given(body.date) || given(body.date_utc);

/**
 * Whether a body entry sends a publication date: what makes a body need the parser. Any depth, so
 * the inline venues and organizers of an event body count too.
 */
export const isDateField = (key: string, value: unknown): boolean =>
  (key === 'date' || key === 'date_utc') && given(value);

/** Takes the date parser shared/http/lazy-parts.ts loaded. */
export function useDateParser(loadedParser: typeof PublicationDates): void {
  parser = loadedParser;
}

/** Publication dates (site zone and UTC) from the body's `date` or `date_utc`, or `at` when it sends neither. */
export function publishedAt(body: Dated, at: Date): { date: string; date_utc: string } {
  if (!sendsDate(body)) return nowDates(at);
  if (!parser) throw new Error('a date before shared/http/lazy-parts.ts loaded its parser');
  return parser.sitePublicationDates(body, at);
}
