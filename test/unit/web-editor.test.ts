import { describe, expect, it } from 'vitest';
import type { CalEvent } from '../../web/src/api-types';
import {
  checkedFieldsOf,
  eventBody,
  type FormValues,
  newEventValues,
  valuesOfEvent,
} from '../../web/src/editor-values';
import { apiSummary, formSummary, recheckAction, STALE_VERSION } from '../../web/src/field-messages';
import { atLeastOne, repeatOnOpen, repeatParts, sendsRecurrence } from '../../web/src/repeat-control';
import { NO_REPEAT } from '../../web/src/repeat-lines';
import { changedFields, saveRequest, snapshotOf } from '../../web/src/save-request';

/**
 * The editor's parts without the DOM: its fields as values (web/src/editor-values.ts), what a save
 * sends (save-request.ts), its messages' words and rules (field-messages.ts) and the repeat control's
 * state (repeat-control.ts). The page as a whole: test/browser/editor.test.ts and recurrence.test.ts.
 */

const event = (over: Partial<CalEvent> = {}): CalEvent =>
  ({
    id: 7,
    title: 'Jazz Night',
    slug: 'jazz-night',
    status: 'publish',
    featured: true,
    all_day: false,
    start_date: '2031-03-12 19:00:00',
    end_date: '2031-03-12 22:00:00',
    timezone: 'Europe/Berlin',
    description: '<p>Trio</p>',
    cost: '10',
    url: 'http://localhost/event/jazz-night/',
    website: 'https://jazz.example/',
    image: { url: 'https://img.example/j.png' },
    venue: { id: 4 },
    organizer: [{ id: 5 }, { id: 6 }],
    categories: [{ id: 12 }],
    tags: [{ id: 13 }, { id: 14 }],
    ...over,
  }) as unknown as CalEvent;

const values = (over: Partial<FormValues> = {}): FormValues => ({
  title: 'Jazz Night',
  start_date: '2031-03-12T19:00',
  end_date: '2031-03-12T22:00',
  timezone: 'Europe/Berlin',
  all_day: false,
  status: 'publish',
  featured: true,
  description: '<p>Trio</p>',
  cost: '10',
  website: 'https://jazz.example/',
  image: 'https://img.example/j.png',
  venue: '4',
  organizer: [5, 6],
  categories: [12],
  tags: [13, 14],
  ...over,
});

describe('valuesOfEvent', () => {
  it('opens an event with its fields as the inputs take them', () => {
    expect(valuesOfEvent(event())).toEqual(values());
  });

  it('opens a trashed event as a draft', () => {
    expect(valuesOfEvent(event({ status: 'trash' })).status).toBe('draft');
  });

  it("leaves the website empty when the API shows the event's own page there", () => {
    const e = event({ website: 'http://localhost/event/jazz-night/' });

    expect(valuesOfEvent(e).website).toBe('');
  });

  it('leaves absent fields empty: no venue, image, zone, text, cost, terms', () => {
    const e = event({
      venue: [],
      image: false,
      timezone: undefined,
      description: undefined,
      cost: undefined,
      website: undefined,
      categories: undefined,
      tags: undefined,
    } as unknown as Partial<CalEvent>);

    expect(valuesOfEvent(e)).toMatchObject({
      venue: '',
      image: '',
      timezone: '',
      description: '',
      cost: '',
      website: '',
      categories: [],
      tags: [],
    });
  });
});

describe('newEventValues', () => {
  it("sets the viewer's zone, the start and end given, all day and published", () => {
    const v = newEventValues({ start: '2031-03-12T18:00', end: '2031-03-12T20:00' }, 'Europe/Paris');

    expect(v).toEqual({
      timezone: 'Europe/Paris',
      start_date: '2031-03-12T18:00',
      end_date: '2031-03-12T20:00',
      all_day: false,
      status: 'publish',
    });
  });

  it('leaves the dates empty without defaults, and sets all day when asked', () => {
    expect(newEventValues({}, 'UTC')).toMatchObject({ start_date: '', end_date: '', all_day: false });
    expect(newEventValues({ allDay: true }, 'UTC').all_day).toBe(true);
  });
});

describe('eventBody', () => {
  it("sends every field as the API takes it: wall times, the venue's ID in a list", () => {
    const body = eventBody(values(), null, 'UTC');

    expect(body).toEqual({
      title: 'Jazz Night',
      start_date: '2031-03-12 19:00:00',
      end_date: '2031-03-12 22:00:00',
      timezone: 'Europe/Berlin',
      all_day: false,
      status: 'publish',
      featured: true,
      description: '<p>Trio</p>',
      cost: '10',
      website: 'https://jazz.example/',
      image: 'https://img.example/j.png',
      venue: [4],
      organizer: [5, 6],
      categories: [12],
      tags: [13, 14],
    });
  });

  it("sends the viewer's zone for an empty one, null for no website or image, no venue as []", () => {
    const body = eventBody(values({ timezone: '', website: '', image: '', venue: '' }), null, 'Asia/Tokyo');

    expect(body).toMatchObject({ timezone: 'Asia/Tokyo', website: null, image: null, venue: [] });
  });

  it('sends recurrence first when there is one, and none otherwise', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=WE'];

    expect(Object.keys(eventBody(values(), lines, 'UTC'))[0]).toBe('recurrence');
    expect(eventBody(values(), lines, 'UTC').recurrence).toEqual(lines);
    expect('recurrence' in eventBody(values(), null, 'UTC')).toBe(false);
  });

  it('keeps empty dates empty (the API names them)', () => {
    const body = eventBody(values({ start_date: '', end_date: '' }), null, 'UTC');

    expect([body.start_date, body.end_date]).toEqual(['', '']);
  });
});

describe('checkedFieldsOf', () => {
  it("picks the fields the form's own checks read", () => {
    expect(checkedFieldsOf(values())).toEqual({
      title: 'Jazz Night',
      start_date: '2031-03-12T19:00',
      end_date: '2031-03-12T22:00',
      timezone: 'Europe/Berlin',
      website: 'https://jazz.example/',
      image: 'https://img.example/j.png',
    });
  });
});

describe('saveRequest', () => {
  const body = eventBody(values(), null, 'UTC');
  const opened = snapshotOf(body);

  it('creates a new event with the whole body', () => {
    expect(saveRequest(null, null, undefined, body, opened)).toEqual({ op: 'createEvent', body });
  });

  it('updates an event with the whole body, conditional on the version opened', () => {
    const r = saveRequest({ id: 7 }, '"v3"', undefined, body, opened);

    expect(r).toEqual({ op: 'updateEvent', id: 7, body, ifMatch: '"v3"' });
  });

  it('updates an occurrence with the scope chosen and only the fields changed since it opened', () => {
    const edited = { ...body, title: 'Jazz Night (late)', tags: [13] };

    const r = saveRequest({ id: 7 }, '"v3"', 'following', edited, opened);

    expect(r).toEqual({
      op: 'updateEvent',
      id: 7,
      body: { title: 'Jazz Night (late)', tags: [13] },
      ifMatch: '"v3"',
      scope: 'following',
    });
  });

  it('sends an empty body for an occurrence left as it opened', () => {
    const r = saveRequest({ id: 7 }, null, 'this', body, opened);

    expect(r).toMatchObject({ body: {}, scope: 'this' });
  });
});

describe('changedFields', () => {
  it('compares fields by value, not by identity, arrays in order', () => {
    const body = eventBody(values(), null, 'UTC');
    const opened = snapshotOf(body);

    expect(changedFields(opened, { ...body, organizer: [5, 6] })).toEqual({});
    expect(changedFields(opened, { ...body, organizer: [6, 5] })).toEqual({ organizer: [6, 5] });
  });

  it('counts a field the form did not have when it opened (a repeat chosen since) as changed', () => {
    const body = eventBody(values(), null, 'UTC');
    const opened = snapshotOf(body);
    const lines = ['RRULE:FREQ=DAILY'];

    expect(changedFields(opened, eventBody(values(), lines, 'UTC'))).toEqual({ recurrence: lines });
  });
});

describe('apiSummary and formSummary', () => {
  const refusal = { status: 400, message: 'Invalid parameter(s): end_date', code: 'rest_invalid_param' };

  it("says the API's message alone when field messages explain it", () => {
    expect(apiSummary(refusal, 1)).toBe('Invalid parameter(s): end_date');
  });

  it('adds the code when no field message explains it', () => {
    expect(apiSummary(refusal, 0)).toBe('Invalid parameter(s): end_date (rest_invalid_param)');
  });

  it('explains a lost race (412) whatever the API said', () => {
    expect(apiSummary({ status: 412, message: 'Precondition failed', code: 'x' }, 0)).toBe(STALE_VERSION);
  });

  it('counts the fields to correct', () => {
    expect([formSummary(1), formSummary(3)]).toEqual([
      'Nothing was saved: 1 field to correct.',
      'Nothing was saved: 3 fields to correct.',
    ]);
  });
});

describe('recheckAction', () => {
  const problems = { end_date: 'end_date must not be before start_date.' };

  it('updates a message whose problem is still there, whoever found it', () => {
    expect(recheckAction({ name: 'end_date', source: 'api' }, problems, 'title')).toEqual({
      update: problems.end_date,
    });
  });

  it("clears a form check's message once its check passes, whatever field changed", () => {
    expect(recheckAction({ name: 'title', source: 'form' }, problems, 'cost')).toBe('clear');
  });

  it('clears an API message when its own field changes, and keeps it when another one does', () => {
    expect(recheckAction({ name: 'cost', source: 'api' }, {}, 'cost')).toBe('clear');
    expect(recheckAction({ name: 'cost', source: 'api' }, {}, 'title')).toBe('keep');
  });
});

describe('repeatParts', () => {
  it('shows nothing but the frequency for an event that does not repeat', () => {
    expect(repeatParts('never')).toEqual({ every: false, unit: '', days: false, ends: false });
  });

  it('shows the days for weekly only, and the unit of each frequency', () => {
    const units = (['daily', 'weekly', 'monthly-day', 'monthly-nth', 'monthly-last', 'yearly'] as const).map(
      (f) => [f, repeatParts(f).unit, repeatParts(f).days],
    );

    expect(units).toEqual([
      ['daily', 'days', false],
      ['weekly', 'weeks', true],
      ['monthly-day', 'months', false],
      ['monthly-nth', 'months', false],
      ['monthly-last', 'months', false],
      ['yearly', 'years', false],
    ]);
  });
});

describe('atLeastOne', () => {
  it('reads a whole number of at least one, one for anything else', () => {
    expect(['3', '2.7', '0', '-4', '', 'x'].map(atLeastOne)).toEqual([3, 2, 1, 1, 1, 1]);
  });
});

describe('repeatOnOpen', () => {
  it('shows a new event the control, not repeating', () => {
    expect(repeatOnOpen(null)).toEqual({ hidden: false, repeat: NO_REPEAT, kept: null });
  });

  it("hides it for a single event's edit (a series is made on create)", () => {
    expect(repeatOnOpen(event({ series_id: null }))).toEqual({ hidden: true, repeat: NO_REPEAT, kept: null });
  });

  it("shows an occurrence its series' repeat, from the occurrence's start", () => {
    const e = event({
      series_id: 7,
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=5'],
      occurrence_start: '2031-03-12 19:00:00',
    } as Partial<CalEvent>);

    const open = repeatOnOpen(e);

    expect(open).toMatchObject({ hidden: false, kept: null });
    expect(open.repeat).toMatchObject({ freq: 'weekly', days: ['WE'], ends: 'after', count: 5 });
  });

  it('keeps a rule the control cannot show, and says so', () => {
    const e = event({
      series_id: 7,
      recurrence: ['RRULE:FREQ=MONTHLY;BYMONTH=3'],
      recurrence_text: 'Monthly in March',
    } as Partial<CalEvent>);

    const open = repeatOnOpen(e);

    expect(open.repeat).toEqual(NO_REPEAT);
    expect(open.kept).toBe(
      'This series repeats by a rule the form cannot show (Monthly in March): it stays as it is unless you choose a repeat here.',
    );
  });
});

describe('sendsRecurrence', () => {
  it("sends a new event's repeat", () => {
    expect(sendsRecurrence(null, false)).toBe(true);
  });

  it("sends an occurrence's repeat only once the user changed it", () => {
    expect(sendsRecurrence({ series_id: 7 }, false)).toBe(false);
    expect(sendsRecurrence({ series_id: 7 }, true)).toBe(true);
  });

  it("never sends one for a single event's edit", () => {
    expect(sendsRecurrence({ series_id: null }, true)).toBe(false);
  });
});
