/**
 * DynamoDB accounting for the bench: a middleware on the shared document client (in the bench's
 * process only) that asks every data-plane call for its consumed capacity and counts calls, items
 * read and read / write units, and the round trips of requests sent one at a time.
 */
import { ddb } from '../shared/db/client';

export interface Usage {
  calls: number;
  rcu: number;
  wcu: number;
  items: number;
}

export const usage: Usage = { calls: 0, rcu: 0, wcu: 0, items: 0 };

type Capacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
type Output = {
  ConsumedCapacity?: Capacity | Capacity[];
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
};
const DATA_PLANE =
  /^(Get|Put|Update|Delete|BatchGet|BatchWrite|TransactGet|TransactWrite)(Item|Items)?Command$|^(Query|Scan)Command$/;
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/** Items a read returned or examined: Query / Scan ScannedCount, BatchGet / TransactGet responses, GetItem's item. */
function itemsRead(o: Output): number {
  if (typeof o.ScannedCount === 'number') return o.ScannedCount;
  if (Array.isArray(o.Responses)) return o.Responses.length;
  if (o.Responses) return Object.values(o.Responses).reduce((n, list) => n + list.length, 0);
  return o.Item ? 1 : 0;
}

/**
 * Round trips of a request sent alone: a call's depth is one more than the deepest call that had
 * finished when it began (calls in flight together share a depth), and the request's round trips are
 * the deepest depth. Only meaningful while one request runs at a time: startTrip() before it.
 */
const trip = { done: 0, deepest: 0 };
export function startTrip(): void {
  trip.done = 0;
  trip.deepest = 0;
}
export const roundTrips = () => trip.deepest;

let installed = false;

export async function instrument(): Promise<void> {
  if (installed) return;
  installed = true;
  ddb.middlewareStack.add(
    (next, context) => async (a) => {
      const name = String((context as { commandName?: string }).commandName ?? '');
      // Set before the document client marshals the input, which keeps top-level fields as they are.
      if (DATA_PLANE.test(name)) (a.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const depth = trip.done + 1;
      trip.deepest = Math.max(trip.deepest, depth);
      const out = await next(a).finally(() => (trip.done = Math.max(trip.done, depth)));
      usage.calls++;
      const o = out.output as Output;
      const consumed = o.ConsumedCapacity;
      for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
        const units = c.CapacityUnits ?? (c.ReadCapacityUnits ?? 0) + (c.WriteCapacityUnits ?? 0);
        if (WRITES.test(name)) usage.wcu += units;
        else usage.rcu += units;
      }
      if (!WRITES.test(name)) usage.items += itemsRead(o);
      return out;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
}
