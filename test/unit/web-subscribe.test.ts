import { describe, expect, it } from 'vitest';
import { NO_FILTERS } from '../../web/src/filters';
import { feedOf, subscribeLinks, webcalOf } from '../../web/src/subscribe-links';

/** The subscribe menu's feed for the view's filters (web/src/subscribe-links.ts). */
describe('feedOf', () => {
  it('is the whole calendar without filters', () => {
    expect(feedOf(NO_FILTERS)).toEqual({ path: '/cal/events/v1/events/ical', filtered: false });
  });

  it("carries the view's filters, never the trash", () => {
    expect(feedOf({ ...NO_FILTERS, category: 'jazz', featured: true, trash: true })).toEqual({
      path: '/cal/events/v1/events/ical?categories=jazz&featured=true',
      filtered: true,
    });
    expect(feedOf({ ...NO_FILTERS, trash: true })).toEqual({
      path: '/cal/events/v1/events/ical',
      filtered: false,
    });
  });
});

describe('subscribeLinks', () => {
  it('names the same feed in each calendar program', () => {
    const feed = 'https://calendar.test/cal/events/v1/events/ical?tags=free';
    const links = subscribeLinks(feed, 'Event calendar (filtered)');
    const webcal = 'webcal://calendar.test/cal/events/v1/events/ical?tags=free';
    expect(webcalOf(feed)).toBe(webcal);
    expect(links.apple).toBe(webcal);
    expect(links.feed).toBe(feed);
    expect(links.google).toBe(
      `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    );
    expect(links.outlook365).toContain('https://outlook.office.com/owa?');
    expect(links.outlookCom).toContain(
      `url=${encodeURIComponent(webcal)}&name=Event%20calendar%20(filtered)`,
    );
  });
});
