import { ddb } from '../../shared/db/client';

/** One DynamoDB command the handlers sent, and how many items it returned. */
export interface DbCall {
  command: string;
  /** The index a Query read, if any. */
  index?: string;
  /** The partition a Query read (its `:pk` value), if any. */
  partition?: string;
  /** Whether a Query narrowed the partition by its sort key (a prefix or range), rather than reading it all. */
  narrowed?: boolean;
  /** The partition keys a BatchGetItem asked for. */
  keys?: string[];
  items: number;
}

const calls: DbCall[] = [];
let installed = false;
/**
 * Round trips, as the bench counts them (bench/usage.ts): a call's depth is one more than the deepest
 * call that had finished when it began, so calls in flight together share a depth, and a measurement's
 * round trips are its deepest call's depth. Independent of how parallel chains interleave in time.
 */
const trip = { done: 0, deepest: 0 };
let inFlight = 0;

/** Items a command's output holds: Query/Scan `Items`, BatchGet `Responses`, Get `Item`. */
function itemsOf(output: Record<string, unknown>): number {
  if (Array.isArray(output.Items)) return output.Items.length;
  if (output.Responses && typeof output.Responses === 'object')
    return Object.values(output.Responses as Record<string, unknown[]>).reduce(
      (n, list) => n + (Array.isArray(list) ? list.length : 0),
      0,
    );
  return output.Item ? 1 : 0;
}

/**
 * Counts the DynamoDB commands of the shared document client (the gateway runs the handlers in this
 * process, so it sees theirs). Deterministic: calls and items, never times.
 */
export function watchDb(): void {
  if (installed) return;
  installed = true;
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      inFlight++;
      const depth = trip.done + 1;
      trip.deepest = Math.max(trip.deepest, depth);
      let out: Awaited<ReturnType<typeof next>>;
      try {
        out = await next(args);
      } finally {
        inFlight--;
        trip.done = Math.max(trip.done, depth);
      }
      const input = args.input as {
        RequestItems?: Record<string, { Keys?: Array<Record<string, unknown>> }>;
        IndexName?: string;
        ExpressionAttributeValues?: Record<string, unknown>;
        KeyConditionExpression?: string;
      };
      const pk = input.ExpressionAttributeValues?.[':pk'];
      calls.push({
        command: String(context.commandName ?? 'unknown'),
        index: input.IndexName,
        narrowed: input.KeyConditionExpression ? input.KeyConditionExpression.includes('#sk') : undefined,
        partition: typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S,
        keys: input.RequestItems
          ? Object.values(input.RequestItems).flatMap((r) =>
              (r.Keys ?? []).map((k) =>
                typeof k.pk === 'string' ? k.pk : String((k.pk as { S?: string }).S),
              ),
            )
          : undefined,
        items: itemsOf(out.output as Record<string, unknown>),
      });
      return out;
    },
    { step: 'initialize', name: 'countCalls' },
  );
}

/** DynamoDB calls of the handlers still in flight (after an answer: reads that outlived the request). */
export const callsInFlight = () => inFlight;

/** The calls made while `fn` ran, their round trips (calls sent together count once), and items read. */
export async function measure<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; calls: DbCall[]; rounds: number; items: number }> {
  watchDb();
  const from = calls.length;
  trip.done = 0;
  trip.deepest = 0;
  const result = await fn();
  const made = calls.slice(from);
  return { result, calls: made, rounds: trip.deepest, items: made.reduce((n, c) => n + c.items, 0) };
}
