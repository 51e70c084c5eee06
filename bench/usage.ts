/**
 * DynamoDB accounting for the bench: a middleware on the shared document client (in the bench's
 * process only) that asks every data-plane call for its consumed capacity and counts calls, items
 * read and read / write units, and the round trips of requests sent one at a time.
 */
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../shared/db/client';
import { ownClient } from './own-client';

export interface Usage {
  calls: number;
  rcu: number;
  wcu: number;
  items: number;
}

export const usage: Usage = { calls: 0, rcu: 0, wcu: 0, items: 0 };

/** Calls that wrote (Put, Update, Delete, BatchWrite, TransactWrite), counted beside `usage`. */
export const writeCalls = { count: 0 };

/** Writes whose units could not be worked out (their items unreadable): left out of `usage.wcu`. */
export const unsized = { count: 0 };

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

/**
 * An item's size as DynamoDB bills it: attribute names and values (strings and binaries by their
 * bytes, numbers by their significant digits, about one byte per two, plus one), lists and maps 3
 * bytes and one per element beside their contents.
 */
export function itemSize(item: Record<string, unknown>): number {
  const size = (v: unknown): number => {
    if (typeof v === 'string') return Buffer.byteLength(v);
    if (typeof v === 'number')
      return (
        Math.ceil(
          String(Math.abs(v))
            .replace(/\.|e.*$/g, '')
            .replace(/^0+/, '').length / 2,
        ) + 1
      );
    if (typeof v === 'boolean' || v === null) return 1;
    if (v instanceof Uint8Array) return v.length;
    if (v instanceof Set) return [...v].reduce((n: number, x) => n + size(x), 0);
    if (Array.isArray(v)) return 3 + v.reduce((n: number, x) => n + size(x) + 1, 0);
    if (typeof v === 'object' && v)
      return 3 + Object.entries(v).reduce((n, [k, x]) => n + Buffer.byteLength(k) + size(x) + 1, 0);
    return 0;
  };
  return Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + size(v), 0);
}

/** Write units of writing an item of this size: one per KB begun, twice in a transaction. */
const writeUnits = (bytes: number, transactional: boolean) =>
  Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

let reader: DynamoDBDocumentClient | undefined;
/** Items by key, read outside the accounting (the state a write left). */
async function sizesOf(keys: TableKey[]): Promise<Map<string, number>> {
  reader ??= ownClient();
  const out = new Map<string, number>();
  for (let i = 0; i < keys.length; i += 100) {
    const res = await reader.send(
      new BatchGetCommand({
        RequestItems: { [tableName()]: { Keys: keys.slice(i, i + 100), ConsistentRead: true } },
      }),
    );
    for (const item of res.Responses?.[tableName()] ?? []) out.set(`${item.pk}|${item.sk}`, itemSize(item));
  }
  return out;
}

type TableKey = { pk: string | number; sk: string | number };
type Written = {
  Put?: { Item: Record<string, unknown> };
  Update?: { Key: Record<string, unknown> };
  Delete?: unknown;
  ConditionCheck?: { Key: Record<string, unknown> };
};

/**
 * The table's key of a write's `Key`, to read the item back: `pk` and `sk` alone, each a string or a
 * number, also when given as a DynamoDB attribute value (`{ S: ... }`). Anything else (a map or a
 * set, which BatchGetItem refuses with "Invalid attribute value type", and which would end the read
 * of every other key with it) is no key: undefined.
 */
export function tableKey(key: unknown): TableKey | undefined {
  const scalar = (v: unknown): string | number | undefined => {
    if (typeof v === 'string' || typeof v === 'number') return v;
    const a = v as { S?: unknown; N?: unknown } | null;
    if (a && typeof a === 'object' && !(a instanceof Set) && !Array.isArray(a)) {
      if (typeof a.S === 'string') return a.S;
      if (typeof a.N === 'string') return Number(a.N);
    }
    return undefined;
  };
  const k = key as { pk?: unknown; sk?: unknown } | null;
  const pk = scalar(k?.pk);
  const sk = scalar(k?.sk);
  return pk === undefined || sk === undefined ? undefined : { pk, sk };
}

/** A write's items, whatever the call: a transaction's, a batch's, or the one of a single write. */
function writtenItems(name: string, input: Record<string, unknown>): Written[] {
  if (name.startsWith('TransactWrite')) return (input.TransactItems as Written[]) ?? [];
  if (name.startsWith('BatchWrite'))
    return Object.values(
      input.RequestItems as Record<
        string,
        Array<{ PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: unknown }>
      >,
    )
      .flat()
      .map((r) => (r.PutRequest ? { Put: r.PutRequest } : { Delete: r.DeleteRequest }));
  if (name.startsWith('Put')) return [{ Put: { Item: input.Item as Record<string, unknown> } }];
  if (name.startsWith('Update')) return [{ Update: { Key: input.Key as Record<string, unknown> } }];
  return [{ Delete: input.Key }];
}

/**
 * The keys whose items must be read back to size a write (its updates' and condition checks'), each
 * once, as BatchGetItem takes them.
 */
export function keysToSize(name: string, input: Record<string, unknown>): TableKey[] {
  const out = new Map<string, TableKey>();
  for (const w of writtenItems(name, input)) {
    const key = tableKey(w.Update?.Key ?? w.ConditionCheck?.Key);
    if (key) out.set(`${key.pk}|${key.sk}`, key);
  }
  return [...out.values()];
}

/**
 * The write units a write consumed, by DynamoDB's rules (DynamoDB Local reports 2 per transaction,
 * whatever it holds): per item, one unit per KB of the item (an update's item as the write left it, a
 * put's item, a delete or a condition check at least one), twice in a transaction. Read after the
 * write, outside the request's time.
 */
async function writeCost(name: string, input: Record<string, unknown>): Promise<number> {
  const transactional = name.startsWith('TransactWrite');
  const keyed = keysToSize(name, input);
  const sizes = keyed.length > 0 ? await sizesOf(keyed) : new Map<string, number>();
  const sizeOf = (key: Record<string, unknown>) => {
    const k = tableKey(key);
    return k ? (sizes.get(`${k.pk}|${k.sk}`) ?? 0) : 0;
  };
  return writtenItems(name, input).reduce(
    (n, w) =>
      n +
      writeUnits(
        w.Put
          ? itemSize(w.Put.Item)
          : w.Update
            ? sizeOf(w.Update.Key)
            : w.ConditionCheck
              ? sizeOf(w.ConditionCheck.Key)
              : 0,
        transactional,
      ),
    0,
  );
}

const pending = new Set<Promise<void>>();
/** Waits for the write units still being worked out. */
export async function settled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

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

/**
 * `sizeWrites: false` counts writes without working out their units: reading each write's items back
 * loads the one DynamoDB Local a throughput bench (the import's) is measuring.
 */
export async function instrument({ sizeWrites = true } = {}): Promise<void> {
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
      if (WRITES.test(name)) {
        writeCalls.count++;
        if (!sizeWrites) return out;
        if (!sizeWrites) return out;
        // A write whose items cannot be read back leaves its units uncounted (and counted in
        // `unsized`, which a bench prints) instead of ending the run.
        const cost = writeCost(name, a.input as Record<string, unknown>).then(
          (units) => {
            usage.wcu += units;
          },
          () => {
            unsized.count++;
          },
        );
        pending.add(cost);
        void cost.finally(() => pending.delete(cost));
      } else
        for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed])
          usage.rcu += c.CapacityUnits ?? c.ReadCapacityUnits ?? 0;
      if (!WRITES.test(name)) usage.items += itemsRead(o);
      return out;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
}
