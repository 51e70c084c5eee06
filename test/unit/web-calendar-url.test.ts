import { describe, expect, it } from 'vitest';
import { calendarUrl, NO_FILTERS, type PageState } from '../../web/src/filters';

/** The address of the calendar's view for the page's state (web/src/filters.ts, page-route.ts). */
const url = (over: Partial<PageState> = {}, home = '/'): string =>
  calendarUrl({ view: 'dayGridMonth', date: '', ...NO_FILTERS, ...over }, home);

describe('calendarUrl', () => {
  it('is / with the view and filters in the query', () => {
    expect(url()).toBe('/');
    expect(url({ view: 'listMonth', date: '2031-03-01', tag: 'free' })).toBe(
      '/?view=listMonth&date=2031-03-01&tag=free',
    );
  });

  it("stays on a category's page while its filter applies, leaving it out of the query", () => {
    expect(url({ category: 'jazz', date: '2031-03-01' }, '/events/category/music/jazz/')).toBe(
      '/events/category/music/jazz/?date=2031-03-01',
    );
    expect(url({ category: 'rock' }, '/events/category/music/jazz/')).toBe('/?category=rock');
  });

  it("stays on a venue's page with any filters", () => {
    expect(url({ featured: true }, '/venue/the-hall/')).toBe('/venue/the-hall/?featured=1');
  });
});
