import type { CalEvent } from './api-types';
import { type Frequency, NO_REPEAT, type Repeat, repeatOf } from './repeat-lines';

/**
 * The editor's repeat control as state (editor-repeat.ts draws it): which of its parts a frequency
 * uses, what it shows for the event opened, and when a save sends `recurrence`. Pure:
 * test/unit/web-editor.test.ts runs it in Node.
 */

const UNIT: Partial<Record<Frequency, string>> = { daily: 'days', weekly: 'weeks', yearly: 'years' };

/** The parts of the control the chosen frequency uses, and the unit of its interval. */
export const repeatParts = (freq: Frequency) => ({
  every: freq !== 'never',
  unit: freq.startsWith('monthly') ? 'months' : (UNIT[freq] ?? ''),
  days: freq === 'weekly',
  ends: freq !== 'never',
});

/** A whole number of at least one from a number field (an interval, a count). */
export const atLeastOne = (value: string) => Math.max(1, Math.trunc(Number(value)) || 1);

/**
 * The control for the event being opened: hidden for a single event's edit (a series is made on
 * create); for an occurrence, its series' repeat, or a notice when the control cannot show its rule.
 */
export function repeatOnOpen(e: CalEvent | null): { hidden: boolean; repeat: Repeat; kept: string | null } {
  const hidden = !!e && e.series_id == null;
  if (!e || e.series_id == null) return { hidden, repeat: NO_REPEAT, kept: null };
  const shown = repeatOf(e.recurrence, e.occurrence_start ?? e.start_date);
  return {
    hidden,
    repeat: shown ?? NO_REPEAT,
    kept: shown
      ? null
      : `This series repeats by a rule the form cannot show (${e.recurrence_text ?? ''}): it stays as it is unless you choose a repeat here.`,
  };
}

/** Whether a save sends `recurrence`: a new event's repeat, or an occurrence's once the user changed it. */
export const sendsRecurrence = (editing: { series_id?: number | null } | null, touched: boolean) =>
  !editing || (editing.series_id != null && touched);
