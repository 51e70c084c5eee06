import type { DateBounds } from '../services/event-window';
import { queryItems } from '../db/query';

/** Whether a day key (`Y-m-d` or `Y-m-d~`) satisfies a wall-time bound that sits on a day boundary. */
const day = (bound: string) => bound.slice(0, 10);
const ge = (key: string, bound: string) => key >= day(bound); // start >= D 00:00:00
const leEnd = (key: string, bound: string) => key <= `${day(bound)}~`; // <= D 23:59:59
const ltEnd = (key: string, bound: string) => key <= day(bound); // < D 23:59:59
const gtEnd = (key: string, bound: string) => key > `${day(bound)}~`; // > D 23:59:59

function startOk(b: DateBounds, key: string): boolean {
  return (
    (b.startMin === undefined || ge(key, b.startMin)) &&
    (b.startBefore === undefined || ltEnd(key, b.startBefore)) &&
    (b.startAfter === undefined || gtEnd(key, b.startAfter))
  );
}

function endOk(b: DateBounds, key: string): boolean {
  return (
    (b.endMax === undefined || leEnd(key, b.endMax)) &&
    (b.endBefore === undefined || ltEnd(key, b.endBefore)) &&
    (b.endAfter === undefined || gtEnd(key, b.endAfter))
  );
}

/**
 * Number of listable events of a scope inside a day-aligned window, from the tallies alone: one
 * small item per start day with events, whatever the number of events.
 */
export async function tallyTotal(scope: string, who: 'p' | 'a', b: DateBounds): Promise<number> {
  const lows = [b.startMin, b.startAfter].filter((x): x is string => x !== undefined).map(day);
  const highs = [b.startBefore, b.endMax, b.endBefore].filter((x): x is string => x !== undefined).map(day);
  const low = lows.length ? lows.reduce((a, c) => (c > a ? c : a)) : '0000';
  const high = `${highs.length ? highs.reduce((a, c) => (c < a ? c : a)) : '9999'}~`;
  if (low > high) return 0;
  let total = 0;
  for await (const item of queryItems({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': `TALLY#${scope}`, ':low': low, ':high': high },
  })) {
    if (!startOk(b, String(item.sk))) continue;
    for (const [attr, n] of Object.entries(item)) {
      const [w, endKey] = attr.split('|');
      if (w === who && endKey && typeof n === 'number' && endOk(b, endKey)) total += n;
    }
  }
  return total;
}
