import type { Account } from './account-claims';
import { FILTER_KEYS, type PageState } from './filters';
import { changed, createStore, type Store } from './store';

/**
 * The calendar page's one state: the view and filters its address carries (filters.ts), who is signed
 * in (account.ts, the one reader of the token), and the event whose detail is open. Features change it
 * through `page.update`; render.ts draws what changed.
 */
export interface Page extends PageState {
  /** Who is signed in, as the token's payload labels the page; null when signed out. */
  account: Account | null;
  /** The slug of the event whose detail is open: the address is then its page, `/event/<slug>/`. */
  openSlug: string | null;
  /** The calendar's own address and title while an event is open (a record's page names its record). */
  home: { path: string; title: string };
}

export const createPage = (initial: Page): Store<Page> => createStore(initial);

export const isSignedIn = (s: Page): boolean => s.account !== null;

export const filtersChanged = (a: Page, b: Page): boolean => changed(a, b, FILTER_KEYS);
