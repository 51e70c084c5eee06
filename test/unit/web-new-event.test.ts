import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEventAt, newEventTimes, savedNotice } from '../../web/src/new-event';
import { checkEvent } from '../../web/src/form-checks';

/** Where a new event starts, what a save says, and the form's own checks (web/src/new-event.ts, form-checks.ts). */
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('newEventTimes', () => {
  it("is 18:00 to 20:00 of the calendar's day, in the viewer's zone", () => {
    expect(newEventTimes(new Date(2031, 2, 12, 9, 15))).toEqual({
      start: '2031-03-12T18:00',
      end: '2031-03-12T20:00',
    });
  });

  it('counts the hours across a change of the clocks (Berlin, 30 March 2031)', () => {
    expect(newEventTimes(new Date(2031, 2, 30))).toEqual({
      start: '2031-03-30T18:00',
      end: '2031-03-30T20:00',
    });
  });
});

describe('newEventAt (a click on a day or an hour)', () => {
  it('is the whole day, or an hour from the slot', () => {
    expect(newEventAt('2031-03-12')).toEqual({
      start: '2031-03-12T00:00',
      end: '2031-03-12T23:59',
      allDay: true,
    });
    expect(newEventAt('2031-03-12', '23:30:00')).toEqual({
      start: '2031-03-12T23:30',
      end: '2031-03-13T00:30',
      allDay: false,
    });
  });
});

describe('savedNotice', () => {
  it('names the event, and its status unless published', () => {
    expect(savedNotice({ title: 'Jazz Night', status: 'publish' })).toBe('Saved “Jazz Night”.');
    expect(savedNotice({ title: 'Jazz Night', status: 'pending' })).toBe(
      'Saved “Jazz Night” (Pending review).',
    );
  });
});

describe('checkEvent', () => {
  const ok = {
    title: 'T',
    start_date: '2031-03-12T19:00',
    end_date: '2031-03-12T22:00',
    timezone: 'Europe/Berlin',
    website: '',
    image: '',
  };
  it('finds nothing wrong in a good event', () => {
    expect(checkEvent(ok)).toEqual({});
    expect(checkEvent({ ...ok, timezone: 'UTC+2', website: 'https://x.test/' })).toEqual({});
  });

  it('tells every problem at once', () => {
    expect(
      checkEvent({
        title: '',
        start_date: '2031-03-12T19:00',
        end_date: '2031-03-12T18:00',
        timezone: 'Mars/Base',
        website: 'ftp://x',
        image: 'x',
      }),
    ).toEqual({
      title: 'title must not be empty.',
      end_date: 'end_date must not be before start_date.',
      timezone: 'timezone "Mars/Base" is not an IANA time zone or UTC±N.',
      website: 'website must be an http or https URL.',
      image: 'image must be an http or https URL.',
    });
    expect(checkEvent({ ...ok, start_date: '', end_date: '' })).toEqual({
      start_date: 'start_date is required.',
      end_date: 'end_date is required.',
    });
  });
});
