import { describe, expect, it } from 'vitest';
import { PAGE_PREFIXES } from '../../shared/domain/page-paths';
import {
  archiveFilter,
  attendeePagePath,
  calendarPath,
  eventSlugOf,
  manageViewOf,
  manageViewPath,
  pageAddressOf,
} from '../../web/src/page-route';

/** The calendar page reads its own address in one place (web/src/page-route.ts). */
describe('pageAddressOf', () => {
  it('names each page by its kind and slug, with or without the last slash', () => {
    expect(pageAddressOf('/event/jazz-night/')).toEqual({ kind: 'event', slug: 'jazz-night' });
    expect(pageAddressOf('/event/jazz-night')).toEqual({ kind: 'event', slug: 'jazz-night' });
    expect(pageAddressOf('/venue/the-hall/')).toEqual({ kind: 'venue', slug: 'the-hall' });
    expect(pageAddressOf('/organizer/ann/')).toEqual({ kind: 'organizer', slug: 'ann' });
    expect(pageAddressOf('/tag/accessible/')).toEqual({ kind: 'tag', slug: 'accessible' });
  });

  it("takes a category's last slug, below its ancestors'", () => {
    expect(pageAddressOf('/events/category/music/')).toEqual({ kind: 'category', slug: 'music' });
    expect(pageAddressOf('/events/category/music/jazz/')).toEqual({ kind: 'category', slug: 'jazz' });
    expect(pageAddressOf('/events/category/music/jazz')).toEqual({ kind: 'category', slug: 'jazz' });
  });

  it('decodes a slug; one that does not decode is empty', () => {
    expect(pageAddressOf('/tag/caf%C3%A9/')).toEqual({ kind: 'tag', slug: 'café' });
    expect(pageAddressOf('/event/%E0%A4%A/')).toEqual({ kind: 'event', slug: '' });
  });

  it('is the calendar for any other address, and for a page address of the wrong shape', () => {
    for (const path of [
      '/',
      '/doc',
      '/events/',
      '/event/',
      '/event//',
      '/event/a/b/',
      '/tag/a//',
      '/venue/a/b',
      '/events/category/',
      '/events/category/music//jazz/',
      '/category/music/',
    ])
      expect({ path, page: pageAddressOf(path) }).toEqual({ path, page: { kind: 'calendar' } });
  });

  it("understands every page of the server's list (shared/domain/page-paths.ts)", () => {
    for (const prefix of PAGE_PREFIXES) expect(pageAddressOf(`${prefix}x/`).kind).not.toBe('calendar');
  });
});

describe('archiveFilter and eventSlugOf', () => {
  it("a category's or tag's page applies its filter; others none", () => {
    expect(archiveFilter('/events/category/music/jazz/')).toEqual({ category: 'jazz' });
    expect(archiveFilter('/tag/accessible/')).toEqual({ tag: 'accessible' });
    expect(archiveFilter('/venue/the-hall/')).toEqual({});
    expect(archiveFilter('/')).toEqual({});
  });

  it("names the event of an event's page only, and no event for a slug that does not decode", () => {
    expect(eventSlugOf('/event/jazz-night/')).toBe('jazz-night');
    expect(eventSlugOf('/event/%E9%9F%B3/')).toBe('音');
    expect(eventSlugOf('/event/%E0%A4%A/')).toBeNull();
    expect(eventSlugOf('/tag/jazz/')).toBeNull();
    expect(eventSlugOf('/')).toBeNull();
  });
});

describe('calendarPath', () => {
  const none = { category: '', tag: '' };
  it("keeps a category's or tag's page while its filter alone applies, leaving it out of the query", () => {
    expect(calendarPath({ category: 'jazz', tag: '' }, '/events/category/music/jazz/')).toEqual({
      path: '/events/category/music/jazz/',
      omit: 'category',
    });
    expect(calendarPath({ category: '', tag: 'free' }, '/tag/free/')).toEqual({
      path: '/tag/free/',
      omit: 'tag',
    });
  });

  it('goes to / when the filters are no longer the page', () => {
    expect(calendarPath({ category: 'rock', tag: '' }, '/events/category/jazz/')).toEqual({
      path: '/',
      omit: undefined,
    });
    expect(calendarPath({ category: 'jazz', tag: 'free' }, '/events/category/jazz/')).toEqual({
      path: '/',
      omit: undefined,
    });
    expect(calendarPath(none, '/tag/free/')).toEqual({ path: '/', omit: undefined });
    expect(calendarPath(none, '/event/jazz-night/')).toEqual({ path: '/', omit: undefined });
  });

  it("keeps a venue's or organizer's page whatever the filters", () => {
    expect(calendarPath({ category: 'jazz', tag: '' }, '/venue/the-hall/')).toEqual({
      path: '/venue/the-hall/',
      omit: undefined,
    });
    expect(calendarPath(none, '/organizer/ann')).toEqual({ path: '/organizer/ann', omit: undefined });
  });
});

describe("an event's manage views (check-in, attendees)", () => {
  it('are the event page with ?manage=, read back from the address', () => {
    expect(manageViewPath('jazz-night', 'check-in')).toBe('/event/jazz-night/?manage=check-in');
    expect(manageViewOf('/event/jazz-night/', '?manage=check-in')).toEqual({
      slug: 'jazz-night',
      view: 'check-in',
    });
    expect(manageViewOf('/event/caf%C3%A9/', '?date=2031-03-01&manage=attendees')).toEqual({
      slug: 'café',
      view: 'attendees',
    });
  });

  it('are no view elsewhere, or for another value', () => {
    expect(manageViewOf('/event/jazz-night/', '')).toBeNull();
    expect(manageViewOf('/event/jazz-night/', '?manage=edit')).toBeNull();
    expect(manageViewOf('/', '?manage=check-in')).toBeNull();
    expect(manageViewOf('/venue/the-hall/', '?manage=attendees')).toBeNull();
  });
});

describe("an attendee's own page", () => {
  it('carries the secret token in its query, encoded', () => {
    expect(attendeePagePath(41, 'abc-_123')).toBe('/attendee/41/?token=abc-_123');
    expect(attendeePagePath(41, 'a+b/c=')).toBe('/attendee/41/?token=a%2Bb%2Fc%3D');
  });
});
