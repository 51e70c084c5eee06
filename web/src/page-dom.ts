import type { Calendar } from '@fullcalendar/core';
import type { Page } from './page-state';
import type { Store } from './store';

/** The page's elements by ID, and what every feature says or waits for. */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The outcome of what the user did (kept until the next action). */
export const notice = (text: string): void => {
  $('notice').textContent = text;
};

/** Gives the main thread back to the browser for a moment (what is queued, input among it, runs first). */
export const yieldToMain = () => new Promise<void>((ok) => setTimeout(ok, 0));

/** What every feature is given: the state, the page's notice line and the calendar once it is made. */
export interface PageContext {
  page: Store<Page>;
  /** The outcome of what the user did (kept until the next action). */
  notice(text: string): void;
  /** The calendar (FullCalendar starts loading in its constructor, before this answers). */
  calendar(): Calendar;
}
