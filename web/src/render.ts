import { renderAccount } from './account';
import { renderFilters } from './filter-panel';
import { filtersChanged, type Page } from './page-state';

/**
 * The page's one render: draws from the state what changed since `previous` (all of it without one).
 * The calendar draws itself (FullCalendar), asked to refetch by the features that change its events.
 */
export function renderPage(s: Page, previous?: Page): void {
  if (!previous || s.account !== previous.account) renderAccount(s);
  if (!previous || filtersChanged(s, previous)) renderFilters(s);
}
