import type { DateBounds } from '../domain/event-window';
import { tallyCount, tallyRange, type TallyWho } from '../domain/tallies';
import { keys } from '../db/keys';
import { queryIndex } from '../db/query';

/** Day tallies of a scope whose start day lies in [low, high]: one small item per day with events. */
export function dayTallies(scope: string, low: string, high: string) {
  return queryIndex({ partition: keys.tallyPartition(scope), sort: { between: [low, high] } });
}

/** Listable events of a scope inside a day-aligned window, counted from the tallies alone. */
export async function tallyTotal(scope: string, who: TallyWho, b: DateBounds): Promise<number> {
  const [low, high] = tallyRange(b);
  if (low > high) return 0;
  let total = 0;
  for await (const item of dayTallies(scope, low, high)) total += tallyCount(item, who, b);
  return total;
}
