// Apart from event-window.ts (which reads dates with luxon) so that the repositories that compare
// rows with bounds do not bring luxon into functions that never read a date.

/** Bounds on events' wall-clock start and end, compared as `Y-m-d H:i:s` strings (reference §4.3). */
export interface DateBounds {
  startMin?: string; // start >=
  startBefore?: string; // start <
  startAfter?: string; // start >
  endMax?: string; // end <=
  endBefore?: string; // end <
  endAfter?: string; // end >
  /** Every bound falls on a day boundary (inclusive mode), so tallies can count the window. */
  dayAligned: boolean;
}

export function inBounds(b: DateBounds, start: string, end: string): boolean {
  return (
    (b.startMin === undefined || start >= b.startMin) &&
    (b.startBefore === undefined || start < b.startBefore) &&
    (b.startAfter === undefined || start > b.startAfter) &&
    (b.endMax === undefined || end <= b.endMax) &&
    (b.endBefore === undefined || end < b.endBefore) &&
    (b.endAfter === undefined || end > b.endAfter)
  );
}

/** Range of start keys an index query needs to read: [low, high], both inclusive prefixes. */
export function startRange(b: DateBounds): { low: string; high: string } {
  const highs = [b.startBefore, b.endMax, b.endBefore].filter((x): x is string => x !== undefined);
  const lows = [b.startMin, b.startAfter].filter((x): x is string => x !== undefined);
  return {
    low: lows.length ? lows.reduce((a, c) => (c > a ? c : a)) : '0000',
    high: highs.length ? `${highs.reduce((a, c) => (c < a ? c : a))}~` : '9999~',
  };
}
