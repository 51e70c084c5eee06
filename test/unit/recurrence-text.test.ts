import { describe, expect, it } from 'vitest';
import {
  cutLines,
  lineValue,
  readRecurrenceLines,
  restLines,
  ruleLine,
  ruleUntil,
} from '../../shared/domain/recurrence-lines';
import { compactWall, wallAt, wallDiff, wallMs, wallPlus } from '../../shared/domain/wall-time';

/** The one module that reads and writes `recurrence` text (issue 41), and the wall-clock arithmetic. */
describe('recurrence lines written', () => {
  it('writes a rule in the order a person writes it, and reads back what it wrote', () => {
    const line = ruleLine({
      freq: 'MONTHLY',
      interval: 2,
      byDay: [{ day: 'TU', nth: -1 }],
      until: '20270630',
    });
    expect(line).toBe('RRULE:FREQ=MONTHLY;BYDAY=-1TU;INTERVAL=2;UNTIL=20270630');
    expect(readRecurrenceLines([line]).rule).toMatchObject({
      freq: 'MONTHLY',
      interval: 2,
      byDay: [{ day: 'TU', nth: -1 }],
      until: { wall: '2027-06-30', date: true },
    });
    expect(ruleLine({ freq: 'WEEKLY', interval: 1, byDay: [{ day: 'MO' }, { day: 'WE' }], count: 4 })).toBe(
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4',
    );
  });

  it('ends a rule at a new UNTIL in place of its COUNT or UNTIL', () => {
    expect(ruleUntil('RRULE:FREQ=DAILY;COUNT=5;BYDAY=MO', '20270101')).toBe(
      'RRULE:FREQ=DAILY;BYDAY=MO;UNTIL=20270101',
    );
    expect(ruleUntil(' RRULE:COUNT=5;FREQ=DAILY', '20270101T000000Z')).toBe(
      'RRULE:FREQ=DAILY;UNTIL=20270101T000000Z',
    );
    expect(lineValue('2027-06-30 19:00:00')).toBe('20270630T190000');
    expect(lineValue('2027-06-30 19:00:00', true)).toBe('20270630');
  });

  it('cuts a series before an occurrence, and counts the rest on', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10', 'RDATE:20270301T190000,20270320T190000'];
    expect(cutLines(lines, '2027-03-16 19:00:00', false)).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270316T185959',
      'RDATE:20270301T190000',
    ]);
    expect(cutLines(lines, '2027-03-16 00:00:00', true)[0]).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270315');
    // An earlier end of its own stays.
    expect(cutLines(['RRULE:FREQ=DAILY;UNTIL=20270310'], '2027-03-16 19:00:00', false)).toEqual([
      'RRULE:FREQ=DAILY;UNTIL=20270310',
    ]);
    expect(restLines(lines, 3)).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=7', lines[1]]);
    expect(restLines(['RRULE:FREQ=DAILY;COUNT=2'], 5)).toEqual(['RRULE:FREQ=DAILY;COUNT=1']);
  });
});

describe('wall-clock arithmetic', () => {
  it('moves and compares wall times on the wall clock, with no zone', () => {
    expect(wallPlus('2027-03-13 19:00:00', 86_400_000)).toBe('2027-03-14 19:00:00');
    expect(wallDiff('2027-03-14 20:30:00', '2027-03-14 19:00:00')).toBe(90 * 60_000);
    expect(wallAt(wallMs('2027-12-31 23:59:59'))).toBe('2027-12-31 23:59:59');
    expect(compactWall('2027-06-30 19:00:00')).toBe('20270630T190000');
  });
});
