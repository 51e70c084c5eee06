import { describe, expect, it } from 'vitest';
import type { Attendee } from '../../web/src/api-types';
import {
  attendeesCsvPath,
  attendeeStatus,
  csvFileName,
  filterAttendees,
  searchWords,
  shownText,
} from '../../web/src/attendee-filter';

/** The attendee list's search, words and export address, without the DOM (web/src/attendee-filter.ts). */

const person = (id: number, title: string, email: string, status = 'going'): Attendee => ({
  id,
  post_id: 3,
  ticket_id: 7,
  rest_url: '',
  provider: 'rsvp',
  title,
  email,
  status,
  checked_in: false,
});
const list = [
  person(1, 'Zoë Adams', 'zoe@example.org'),
  person(2, 'Bob Stone', 'bob@stone.example'),
  person(3, 'Ann Lee', 'ann.lee@example.org', 'waitlist'),
];
const names = (l: Attendee[]) => l.map((a) => a.title);

describe('filterAttendees', () => {
  it('matches the name or the e-mail address, case and accents ignored', () => {
    expect(names(filterAttendees(list, 'zoe'))).toEqual(['Zoë Adams']);
    expect(names(filterAttendees(list, 'STONE.example'))).toEqual(['Bob Stone']);
    expect(names(filterAttendees(list, 'example.org'))).toEqual(['Zoë Adams', 'Ann Lee']);
  });

  it('needs every word, and lists everyone without one', () => {
    expect(names(filterAttendees(list, 'ann  lee'))).toEqual(['Ann Lee']);
    expect(names(filterAttendees(list, 'ann bob'))).toEqual([]);
    expect(filterAttendees(list, '  ')).toBe(list);
    expect(searchWords(' Zoë  ADAMS ')).toEqual(['zoe', 'adams']);
  });

  it('matches the name alone when the address is not given', () => {
    expect(names(filterAttendees([{ ...list[0]!, email: undefined }], 'zoe@'))).toEqual([]);
  });
});

describe('the list’s words', () => {
  it('names each registration', () => {
    expect(list.map(attendeeStatus)).toEqual(['Going', 'Going', 'Waitlist']);
    expect(attendeeStatus(person(4, 'x', 'y', 'not going'))).toBe('Not going');
  });

  it('counts what is shown', () => {
    expect(shownText(0, 0, '')).toBe('Nobody has registered yet.');
    expect(shownText(1, 1, '')).toBe('1 attendee.');
    expect(shownText(12, 12, ' ')).toBe('12 attendees.');
    expect(shownText(2, 12, 'ann')).toBe('2 of 12 attendees shown.');
    expect(shownText(0, 12, ' bo ')).toBe('No attendee matches “bo” (of 12 attendees).');
  });
});

describe('the CSV export', () => {
  it('asks the tickets namespace for the event’s attendees as CSV', () => {
    expect(attendeesCsvPath(42)).toBe('/cal/tickets/v1/attendees?post_id=42&format=csv');
  });

  it('names the file after the event’s slug, safely', () => {
    expect(csvFileName('jazz-night')).toBe('attendees-jazz-night.csv');
    expect(csvFileName('caf%C3%A9-concert')).toBe('attendees-café-concert.csv');
    expect(csvFileName('a/../b')).toBe('attendees-a-b.csv');
    expect(csvFileName('%E0%A4%A')).toBe('attendees-E0-A4-A.csv');
    expect(csvFileName('')).toBe('attendees-event.csv');
  });
});
