import type { DateBounds } from '../domain/event-window';
import { tallyCount, tallyRange, type TallyWho } from '../domain/tallies';
import { keys } from '../db/keys';
import { queryIndex } from '../db/query';

/** Day tallies of a scope whose start day lies in [low, high]: one small item per day with events. */
export function dayTallies(scope: string, low: string, high: string) {
  return queryIndex({ partition: keys.tallyPartition(scope), sort: { between: [low, high] } });
}

/**
 * Listable events of a scope inside a day-aligned window, counted from the tallies alone, in total and
 * per start day (key order): enough to find the day where any page begins.
 */
export async function tallyDays(
  scope: string,
  who: TallyWho,
  b: DateBounds,
): Promise<{ total: number; days: Array<[string, number]> }> {
  const [low, high] = tallyRange(b);
  const days: Array<[string, number]> = [];
  let total = 0;
  if (low > high) return { total, days };
  for await (const item of dayTallies(scope, low, high)) {
    const n = tallyCount(item, who, b);
    if (n === 0) continue;
    days.push([String(item.sk), n]);
    total += n;
  }
  return { total, days };
}

/** Listable events of a scope inside a day-aligned window, counted from the tallies alone. */
export async function tallyTotal(scope: string, who: TallyWho, b: DateBounds): Promise<number> {
  return (await tallyDays(scope, who, b)).total;
}
