/**
 * Handler time for one page of 50 events, in this process, by stage, with the database left out:
 *   validation     query string parsed, coerced and checked by the compiled validator
 *   planning       listEvents (filters, tallies, candidates, paging) minus its DynamoDB time and minus
 *                  the presentation it runs
 *   presentation   presentEvents over the page's records, minus its DynamoDB time
 *   serialization  the list envelope and JSON.stringify of it
 * DynamoDB time is the wall time during which at least one call of the shared client is in flight,
 * taken by a middleware (calls made in parallel count once).
 */
import type { EventData, EventRecord } from '../shared/domain/event-record';
import { eventOps } from '../shared/contracts/events';
import { ddb } from '../shared/db/client';
import { LISTS, listReply } from '../shared/http/replies';
import { parseQueryString } from '../shared/http/params';
import { getPosts } from '../shared/repositories/posts';
import * as compiled from '../shared/schemas/compiled/listEvents';
import { coerceObject } from '../shared/schemas/coerce';
import { checker } from '../shared/schemas/validation-errors';
import { listEvents } from '../shared/services/events/list';
import { presentEvents } from '../shared/services/events';

let inFlight = 0;
let since = 0;
let dbMs = 0;
let installed = false;

function installDbClock(): void {
  if (installed) return;
  installed = true;
  ddb.middlewareStack.add(
    (next) => async (args) => {
      if (inFlight++ === 0) since = performance.now();
      try {
        return await next(args);
      } finally {
        if (--inFlight === 0) dbMs += performance.now() - since;
      }
    },
    { step: 'initialize', priority: 'low', name: 'benchDbClock' },
  );
}

/** Wall time of `fn` and the part of it spent waiting on DynamoDB. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number; db: number }> {
  const db0 = dbMs;
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0, db: dbMs - db0 };
}

export interface StageTimes {
  stage: string;
  p50_ms: number;
  p95_ms: number;
  /** Share of the handler's own time (medians). */
  share: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

export async function measureHandlerTime(
  root: string,
  rawQuery: string,
  iterations: number,
): Promise<{ stages: StageTimes[]; items: number; dbMs: number }> {
  installDbClock();
  const validate = checker(compiled.query as Parameters<typeof checker>[0]);
  const urls = { root, path: '/events', rawQuery, method: 'GET', rawPath: `/events` };
  const samples = { validation: [] as number[], planning: [] as number[], presentation: [] as number[] };
  const serialization: number[] = [];
  const db: number[] = [];
  let items = 0;
  for (let i = 0; i < iterations + 5; i++) {
    const v = await timed(() => {
      const q = coerceObject(eventOps.list.query ?? {}, parseQueryString(rawQuery));
      validate(q);
      return q;
    });
    const list = await timed(() =>
      listEvents(v.value as Parameters<typeof listEvents>[0], { user: null, root }),
    );
    const ids = list.value.items.map((e) => Number((e as { id: unknown }).id));
    const records = [...(await getPosts<EventData>(ids)).values()] as EventRecord[];
    const pres = await timed(() => presentEvents(records, { user: null, root, single: false }));
    const ser = await timed(() => JSON.stringify(listReply(list.value, LISTS.events, urls).body));
    if (i < 5) continue; // warm-up
    items = list.value.items.length;
    samples.validation.push(v.ms);
    const present = pres.ms - pres.db;
    samples.presentation.push(present);
    samples.planning.push(Math.max(0, list.ms - list.db - present));
    serialization.push(ser.ms);
    db.push(list.db);
  }
  const all = { ...samples, serialization };
  const medians = Object.fromEntries(Object.entries(all).map(([k, xs]) => [k, quantile(xs, 0.5)]));
  const total = Object.values(medians).reduce((a, b) => a + b, 0);
  return {
    stages: Object.entries(all).map(([stage, xs]) => ({
      stage,
      p50_ms: quantile(xs, 0.5),
      p95_ms: quantile(xs, 0.95),
      share: total > 0 ? medians[stage]! / total : 0,
    })),
    items,
    dbMs: quantile(db, 0.5),
  };
}
