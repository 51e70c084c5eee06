import { describe, expect, it } from 'vitest';
import { readRecurrenceLines } from '../../shared/domain/recurrence-lines';
import {
  frequencyChoices,
  NO_REPEAT,
  type Repeat,
  recurrenceLines,
  repeatOf,
} from '../../web/src/repeat-lines';

/** The calendar page's repeat control as `recurrence` lines (web/src/repeat-lines.ts). */
const repeat = (over: Partial<Repeat>): Repeat => ({ ...NO_REPEAT, ...over });
// Tuesday 9 March 2027 (the second Tuesday); Friday 26 March 2027 (the fourth and the last Friday).
const TUESDAY = '2027-03-09 19:00:00';
const LAST_FRIDAY = '2027-03-26 18:30:00';

describe('recurrenceLines', () => {
  it('gives no lines for an event that does not repeat', () => {
    expect(recurrenceLines(NO_REPEAT, TUESDAY)).toBeNull();
  });

  it('writes each frequency as the API reads it', () => {
    const cases: Array<[Partial<Repeat>, string, string]> = [
      [{ freq: 'daily' }, TUESDAY, 'RRULE:FREQ=DAILY'],
      [{ freq: 'daily', interval: 2 }, TUESDAY, 'RRULE:FREQ=DAILY;INTERVAL=2'],
      [{ freq: 'weekly', days: [] }, TUESDAY, 'RRULE:FREQ=WEEKLY;BYDAY=TU'],
      // Days in the week's order, whatever order they were ticked in.
      [{ freq: 'weekly', days: ['TH', 'TU'] }, TUESDAY, 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH'],
      [{ freq: 'monthly-day' }, TUESDAY, 'RRULE:FREQ=MONTHLY;BYMONTHDAY=9'],
      [{ freq: 'monthly-nth' }, TUESDAY, 'RRULE:FREQ=MONTHLY;BYDAY=2TU'],
      [{ freq: 'monthly-nth' }, LAST_FRIDAY, 'RRULE:FREQ=MONTHLY;BYDAY=4FR'],
      [{ freq: 'monthly-last' }, LAST_FRIDAY, 'RRULE:FREQ=MONTHLY;BYDAY=-1FR'],
      [{ freq: 'yearly' }, TUESDAY, 'RRULE:FREQ=YEARLY'],
    ];
    for (const [over, start, line] of cases) {
      expect(recurrenceLines(repeat(over), start), line).toEqual([line]);
      expect(() => readRecurrenceLines([line])).not.toThrow();
    }
  });

  it('ends on a date (the whole day) or after a number of events', () => {
    expect(recurrenceLines(repeat({ freq: 'weekly', ends: 'on', until: '2027-06-30' }), TUESDAY)).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630',
    ]);
    expect(recurrenceLines(repeat({ freq: 'daily', ends: 'after', count: 7 }), TUESDAY)).toEqual([
      'RRULE:FREQ=DAILY;COUNT=7',
    ]);
    // "On" without a date yet: no end rather than a malformed line.
    expect(recurrenceLines(repeat({ freq: 'daily', ends: 'on', until: '' }), TUESDAY)).toEqual([
      'RRULE:FREQ=DAILY',
    ]);
  });
});

describe('frequencyChoices', () => {
  it("names the monthly choices by the start's day, with 'last' only in a month's last week", () => {
    expect(frequencyChoices(TUESDAY).map((c) => c.label)).toEqual([
      'Does not repeat',
      'Daily',
      'Weekly',
      'Monthly on day 9',
      'Monthly on the second Tuesday',
      'Yearly',
    ]);
    expect(frequencyChoices(LAST_FRIDAY).map((c) => c.value)).toContain('monthly-last');
    // The 30th of a 31-day month is the fifth Tuesday and the last: only "last" is offered.
    expect(frequencyChoices('2027-03-30 10:00:00').map((c) => c.label)).toEqual([
      'Does not repeat',
      'Daily',
      'Weekly',
      'Monthly on day 30',
      'Monthly on the last Tuesday',
      'Yearly',
    ]);
  });
});

describe('repeatOf', () => {
  it('reads back every line the control writes', () => {
    const repeats: Array<[Partial<Repeat>, string]> = [
      [{ freq: 'daily', interval: 3 }, TUESDAY],
      [{ freq: 'weekly', days: ['TU', 'TH'], ends: 'on', until: '2027-06-30' }, TUESDAY],
      [{ freq: 'monthly-day', ends: 'after', count: 12 }, TUESDAY],
      [{ freq: 'monthly-nth' }, TUESDAY],
      [{ freq: 'monthly-last' }, LAST_FRIDAY],
      [{ freq: 'yearly', interval: 2 }, TUESDAY],
    ];
    for (const [over, start] of repeats) {
      const r = repeat(over);
      expect(repeatOf(recurrenceLines(r, start), start), JSON.stringify(over)).toEqual(r);
    }
    expect(repeatOf(null, TUESDAY)).toEqual(NO_REPEAT);
  });

  it('gives undefined for lines the control cannot show, which the editor then keeps', () => {
    for (const lines of [
      ['RRULE:FREQ=WEEKLY;BYDAY=TU', 'EXDATE:20270316T190000'],
      ['RRULE:FREQ=MONTHLY;BYDAY=TU;BYSETPOS=-1'],
      ['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'],
      ['RDATE:20270320T190000'],
    ])
      expect(repeatOf(lines, TUESDAY), lines.join(' ')).toBeUndefined();
  });
});
