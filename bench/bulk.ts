/**
 * The bench's bulk path: records made by the API's own handlers, written in batches.
 *
 * A bulk create runs the operation's real Lambda handler in this process (the module the local
 * gateway loads, with the same authentication, validation and service code), inside a capture scope.
 * In that scope a middleware on the shared document client:
 *   - takes the transaction the service commits instead of sending it: its Puts go to a queue that
 *     parallel BatchWriteItem workers drain, its `ADD` updates (link counts, month tallies, status
 *     totals, anything counted) are summed per item and attribute and written once at the end, and
 *     its condition checks are dropped (the targets exist: the bench made them);
 *   - answers the ID sequence from blocks it reserves with one `ADD n` each;
 *   - answers repeated reads from a cache (terms, venues, organizers do not change during a bulk
 *     run; their counts are deferred ADDs anyway), except what slug claims read, which must see the
 *     slugs taken so far: slug guards (answered from this run's claims first), slug counters (always
 *     read) and the slug-prefix query (answered from the slugs this run wrote);
 *   - keeps the uniqueness conditions: a conditional Put (`attribute_not_exists(pk)`: slug guards,
 *     name guards, the record) of a key this run already wrote cancels the transaction like DynamoDB
 *     would, so the service picks another slug exactly as it does under concurrent API writes; a slug
 *     counter's conditional update is sent at once, and cancels the transaction when its condition
 *     fails, as it would in DynamoDB.
 * Nothing else is touched, so the items are the API's by construction; `verifyBulk` checks it by
 * diffing the items a sample makes through HTTP against the same bodies made here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { NAMESPACE_PATH } from '../shared/config';
import { ddb, tableName } from '../shared/db/client';
import { keys } from '../shared/db/keys';
import { batchWrite } from '../shared/db/query';
import { syncTermsInUse } from '../shared/repositories/term-use';
import { ownClient } from './own-client';

type Item = Record<string, unknown>;
type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const ROOT = resolve(import.meta.dirname, '..');
const ID_BLOCK = 500;
const BATCH = 25;

const keyOf = (item: Item) => `${String(item.pk)}\u0000${String(item.sk)}`;

interface Captured {
  /** Puts not handed to the writer yet. */
  puts: Item[];
  adds: Map<string, { key: Item; attrs: Map<string, number> }>;
  /** Updates that are not plain numeric ADDs: sent as they are, after the puts. */
  updates: UpdateCommandInput[];
}

/** One bulk run's state: what the captured transactions wrote and what is still to be written. */
class Session {
  /** Items of the unique keys this run's transactions claimed (slug guards among them), by key. */
  readonly claimed = new Map<string, Item>();
  readonly cache = new Map<string, Promise<unknown>>();
  readonly blocks = new Map<string, { next: number; end: number }>();
  readonly reserving = new Map<string, Promise<void>>();
  readonly out: Captured = { puts: [], adds: new Map(), updates: [] };
  /** Calls that reached DynamoDB from the handlers (cache misses, the slug query, ID blocks). */
  readonly passed = new Map<string, number>();
  /**
   * Slug counters as this run knows them (null: none), by key: read once, then moved by the counter
   * updates of the captured transactions (their conditions checked here, as DynamoDB would) and
   * written at the end; a handler's own update of one (a lost claim's draw) goes to DynamoDB, after
   * what this run moved is written, and the next read fetches it again.
   */
  readonly counters = new Map<string, Item | null>();
  /** Counters this run moved and has not written yet, by key. */
  readonly movedCounters = new Set<string>();
  /** BatchGetItem answers by key (null: no such item). */
  readonly byKey = new Map<string, Item | null>();
  readonly slugs = new Map<string, Promise<Slugs>>();
  transactions = 0;
  items = 0;
  puts = 0;
  constructor(readonly sink: (items: Item[]) => void) {}
}

const als = new AsyncLocalStorage<Session>();
let installed = false;

type Next = (args: { input: object }) => Promise<{ output: unknown; response: unknown }>;
const reply = (output: object) => ({ output: { $metadata: {}, ...output }, response: {} });

/** Numeric `ADD #a :v, ...` updates, as event writes, tallies and status totals build them. */
function parseAdds(u: UpdateCommandInput): Array<[string, number]> | undefined {
  const m = /^ADD (.+)$/.exec(u.UpdateExpression ?? '');
  if (!m) return undefined;
  const out: Array<[string, number]> = [];
  for (const part of m[1]!.split(',')) {
    const [name, value] = part.trim().split(/\s+/);
    const attr = u.ExpressionAttributeNames?.[name!] ?? name!;
    const n = u.ExpressionAttributeValues?.[value!];
    if (typeof n !== 'number') return undefined;
    out.push([attr, n]);
  }
  return out;
}

/** A slug counter's update (shared/repositories/slug-claims.ts): conditional, sent as it is. */
const isCounter = (u: unknown): u is UpdateCommandInput =>
  String((u as UpdateCommandInput | undefined)?.Key?.pk ?? '').startsWith('SLUGSEQ#');

const cancelled = (reasons: Array<{ Code: string }>) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled (bench bulk path: a unique key is taken)',
    $metadata: {},
    CancellationReasons: reasons,
  });

let counterClient: DynamoDBDocumentClient | undefined;
const client = () => (counterClient ??= ownClient());

async function loadCounter(s: Session, key: Item): Promise<void> {
  const out = await client().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (!s.counters.has(keyOf(key))) s.counters.set(keyOf(key), out.Item ?? null);
}

/**
 * A counter update's condition and new value, for the forms slug claims write (`attribute_not_exists(n)`
 * or `n = :read`, then `SET n = :k`); anything else stops the run, as the bulk path cannot judge it.
 */
function moveCounter(u: UpdateCommandInput, current: Item | null): Item | undefined {
  const values = u.ExpressionAttributeValues ?? {};
  const n = current?.n;
  const holds =
    u.ConditionExpression === 'attribute_not_exists(n)'
      ? n === undefined
      : u.ConditionExpression === 'n = :read'
        ? n === values[':read']
        : undefined;
  if (holds === undefined || u.UpdateExpression !== 'SET n = :k')
    throw new Error(
      `bench bulk path: a slug counter update it cannot apply: ${JSON.stringify(u).slice(0, 300)}`,
    );
  return holds ? { ...(u.Key as Item), n: values[':k'] } : undefined;
}

/**
 * Writes the counters this run moved (all of them, or the one of `key`), never lowering one: a
 * handler's draw may have moved it further in DynamoDB meanwhile.
 */
async function writeCounters(s: Session, key?: Item): Promise<void> {
  const moved = key ? [keyOf(key)].filter((k) => s.movedCounters.has(k)) : [...s.movedCounters];
  const write = async (k: string) => {
    const counter = s.counters.get(k);
    s.movedCounters.delete(k);
    if (!counter) return;
    const { pk, sk, n } = counter;
    try {
      await client().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk, sk },
          UpdateExpression: 'SET n = :n',
          ConditionExpression: 'attribute_not_exists(n) OR n < :n',
          ExpressionAttributeValues: { ':n': n },
        }),
      );
    } catch (e) {
      if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
    }
  };
  for (let i = 0; i < moved.length; i += 16) await Promise.all(moved.slice(i, i + 16).map(write));
}

async function capture(s: Session, items: Array<Record<string, Item>>) {
  const counters = items.flatMap((it, i) => (isCounter(it.Update) ? [{ u: it.Update, i }] : []));
  for (const { u } of counters)
    if (!s.counters.has(keyOf(u.Key as Item))) await loadCounter(s, u.Key as Item);
  // Uniqueness and counters first, all or nothing, as DynamoDB decides a transaction; nothing is
  // awaited from here on, so that no concurrent capture takes the same keys.
  const unique = (it: Record<string, Item>) => {
    const put = it.Put as { Item: Item; ConditionExpression?: string } | undefined;
    return put?.ConditionExpression?.includes('attribute_not_exists(pk)') ? put.Item : undefined;
  };
  const moved = new Map<number, Item>();
  const reasons = items.map((it, i) => {
    const item = unique(it);
    if (item && s.claimed.has(keyOf(item))) return { Code: 'ConditionalCheckFailed' };
    if (!isCounter(it.Update)) return { Code: 'None' };
    const next = moveCounter(it.Update, s.counters.get(keyOf(it.Update.Key as Item)) ?? null);
    if (next) moved.set(i, next);
    return { Code: next ? 'None' : 'ConditionalCheckFailed' };
  });
  if (reasons.some((r) => r.Code !== 'None')) throw cancelled(reasons);
  for (const item of items.map(unique)) if (item) s.claimed.set(keyOf(item), item);
  for (const item of moved.values()) {
    s.counters.set(keyOf(item), item);
    s.movedCounters.add(keyOf(item));
  }
  s.transactions++;
  for (const it of items) {
    s.items++;
    if (it.Put) {
      const put = it.Put as { Item: Item; ConditionExpression?: string };
      if (typeof put.Item.gsi1pk === 'string' && typeof put.Item.gsi1sk === 'string')
        void s.slugs.get(put.Item.gsi1pk)?.then((x) => x.add(put.Item.gsi1sk as string));
      s.out.puts.push(put.Item);
      s.puts++;
    } else if (isCounter(it.Update)) {
      // Written above.
    } else if (it.Update) {
      const u = it.Update as unknown as UpdateCommandInput;
      const adds = parseAdds(u);
      if (!adds) {
        s.out.updates.push(u);
        continue;
      }
      const key = u.Key as Item;
      const id = keyOf(key);
      const entry = s.out.adds.get(id) ?? { key, attrs: new Map<string, number>() };
      for (const [a, n] of adds) entry.attrs.set(a, (entry.attrs.get(a) ?? 0) + n);
      s.out.adds.set(id, entry);
    } else if (it.ConditionCheck) {
      // The bench made every record a write links to; the sample check compares the results.
    } else {
      throw new Error(
        `bench bulk path: a captured transaction has an item it cannot write in bulk: ${JSON.stringify(it).slice(0, 300)}`,
      );
    }
  }
  s.sink(s.out.puts.splice(0));
  return reply({});
}

/** Freezes a cached answer: a caller that changed it would change it for every later hit (and throws instead). */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

async function nextId(s: Session, input: UpdateCommandInput, next: Next) {
  const seq = String((input.Key as Item).sk);
  for (;;) {
    const b = s.blocks.get(seq);
    if (b && b.next <= b.end) return reply({ Attributes: { value: b.next++ } });
    let pending = s.reserving.get(seq);
    if (!pending) {
      const values = input.ExpressionAttributeValues ?? {};
      const [placeholder] = Object.keys(values);
      pending = next({ input: { ...input, ExpressionAttributeValues: { [placeholder!]: ID_BLOCK } } })
        .then(({ output }) => {
          const end = Number((output as { Attributes?: Item }).Attributes?.value);
          s.blocks.set(seq, { next: end - ID_BLOCK + 1, end });
        })
        .finally(() => s.reserving.delete(seq));
      s.reserving.set(seq, pending);
    }
    await pending;
  }
}

/** Command names as the middleware sees them (the low-level client's). */
const READS = new Set(['GetItemCommand', 'QueryCommand']);

/** The slug-prefix query (free slugs) must see what this run has written: answered from `Slugs`. */
const slugQuery = (name: string, input: Item) =>
  name === 'QueryCommand' &&
  input.IndexName === 'bySlug' &&
  String(input.KeyConditionExpression ?? '').includes('begins_with');

/**
 * The slugs of one bySlug partition (a post type or a taxonomy): read once from the index, then kept
 * up to date with every captured item, so that the slug-prefix query is answered as the index would
 * answer it once this run's batches are written.
 */
class Slugs {
  private all: string[] = [];
  private readonly byPrefix = new Map<string, string[]>();
  private constructor() {}

  static async load(partition: string): Promise<Slugs> {
    const out = new Slugs();
    const client = ownClient();
    let start: Item | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'bySlug',
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': 'gsi1pk', '#sk': 'gsi1sk' },
          ExpressionAttributeValues: { ':pk': partition },
          ProjectionExpression: '#sk',
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) out.all.push(String(item.gsi1sk));
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  }

  add(slug: string): void {
    this.all.push(slug);
    for (const [prefix, list] of this.byPrefix) if (slug.startsWith(prefix)) list.push(slug);
  }

  withPrefix(prefix: string): string[] {
    let list = this.byPrefix.get(prefix);
    if (!list) {
      list = this.all.filter((x) => x.startsWith(prefix));
      this.byPrefix.set(prefix, list);
    }
    return [...list].sort();
  }
}

async function answerSlugQuery(s: Session, input: Item) {
  const values = input.ExpressionAttributeValues as Record<string, string>;
  const partition = values[':pk']!;
  let slugs = s.slugs.get(partition);
  if (!slugs) {
    slugs = Slugs.load(partition);
    s.slugs.set(partition, slugs);
  }
  const items = (await slugs).withPrefix(values[':a']!).map((gsi1sk) => ({ gsi1sk }));
  return reply({ Items: items, Count: items.length, ScannedCount: items.length });
}

/** Keys a BatchGetItem answers from `Session.counters`, not the cache: slug counters change with claims. */
const uncached = (key: Item) => String(key.pk).startsWith('SLUGSEQ#');

/**
 * BatchGetItem by key from the cache; only the keys never read before (and slug counters) reach
 * DynamoDB. A unique key this run claimed is answered with its claimed item: its batch may not be
 * written yet.
 */
async function cachedBatchGet(s: Session, input: Item, next: Next) {
  const requests = input.RequestItems as Record<string, { Keys: Item[] }>;
  const responses: Record<string, Item[]> = {};
  const missing: Record<string, { Keys: Item[] } & Item> = {};
  for (const [table, req] of Object.entries(requests)) {
    responses[table] = [];
    for (const key of req.Keys) {
      const k = `${table} ${keyOf(key)}`;
      if (uncached(key) ? !s.counters.has(keyOf(key)) : !s.byKey.has(k) && !s.claimed.has(keyOf(key)))
        (missing[table] ??= { ...req, Keys: [] }).Keys.push(key);
    }
  }
  if (Object.keys(missing).length > 0) {
    s.passed.set('BatchGetItemCommand', (s.passed.get('BatchGetItemCommand') ?? 0) + 1);
    const { output } = await next({ input: { ...input, RequestItems: missing } });
    const o = output as {
      Responses?: Record<string, Item[]>;
      UnprocessedKeys?: Record<string, { Keys: Item[] }>;
    };
    if (Object.keys(o.UnprocessedKeys ?? {}).length > 0)
      throw new Error('bench bulk path: unprocessed keys in a cached BatchGetItem');
    for (const [table, items] of Object.entries(o.Responses ?? {}))
      for (const item of items)
        if (uncached(item)) s.counters.set(keyOf(item), item);
        else s.byKey.set(`${table} ${keyOf(item)}`, deepFreeze(item));
    for (const [table, req] of Object.entries(missing))
      for (const key of req.Keys)
        if (uncached(key)) {
          if (!s.counters.has(keyOf(key))) s.counters.set(keyOf(key), null);
        } else if (!s.byKey.has(`${table} ${keyOf(key)}`)) s.byKey.set(`${table} ${keyOf(key)}`, null);
  }
  for (const [table, req] of Object.entries(requests))
    for (const key of req.Keys) {
      const k = `${table} ${keyOf(key)}`;
      const claimed = s.claimed.get(keyOf(key));
      const counter = uncached(key) ? s.counters.get(keyOf(key)) : undefined;
      const item = uncached(key)
        ? counter && structuredClone(counter)
        : claimed
          ? structuredClone(claimed)
          : s.byKey.get(k);
      if (item) responses[table]!.push(item);
    }
  return reply({ Responses: responses, UnprocessedKeys: {} });
}

/** Adds the capture middleware to the shared client once; it does nothing outside a bulk run. */
export function installCapture(): void {
  if (installed) return;
  installed = true;
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      const s = als.getStore();
      if (!s) return next(args);
      const name = String((context as { commandName?: string }).commandName ?? '');
      const input = args.input as Item;
      if (name === 'TransactWriteItemsCommand')
        return (await capture(s, input.TransactItems as Array<Record<string, Item>>)) as never;
      if (name === 'UpdateItemCommand' && (input.Key as Item | undefined)?.pk === 'COUNTER')
        return (await nextId(s, input as UpdateCommandInput, next as unknown as Next)) as never;
      if (name === 'UpdateItemCommand' && isCounter(input)) {
        // A lost claim drawing from its counter: sent as it is, after what this run moved of it.
        s.passed.set(name, (s.passed.get(name) ?? 0) + 1);
        await writeCounters(s, input.Key as Item);
        try {
          return await next(args);
        } finally {
          // Moved here meanwhile: written (never lowering it), and read again next time, unless a
          // transaction of this run moved it again while that write was out (then kept, written later).
          await writeCounters(s, input.Key as Item);
          const k = keyOf(input.Key as Item);
          if (!s.movedCounters.has(k)) s.counters.delete(k);
        }
      }
      if (slugQuery(name, input)) return (await answerSlugQuery(s, input)) as never;
      if (name === 'BatchGetItemCommand')
        return (await cachedBatchGet(s, input, next as unknown as Next)) as never;
      if (READS.has(name)) {
        const { ReturnConsumedCapacity: _, ...rest } = input;
        const k = `${name} ${JSON.stringify(rest)}`;
        let hit = s.cache.get(k);
        if (!hit) {
          s.passed.set(name, (s.passed.get(name) ?? 0) + 1);
          hit = next(args).then((r) => deepFreeze(r.output));
          s.cache.set(k, hit);
          hit.catch(() => s.cache.delete(k));
        }
        return reply({ ...((await hit) as object) }) as never;
      }
      s.passed.set(name, (s.passed.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'benchBulkCapture' },
  );
}

// ---------------------------------------------------------------------------------------------------
// Writing what was captured

/** Drains captured puts with BatchWriteItem (shared/db/query.ts batchWrite), `concurrency` batches in flight. */
class Writer {
  private readonly client = ownClient();
  private queue: Item[] = [];
  private running = 0;
  private idle: Array<() => void> = [];
  calls = 0;
  failure: Error | undefined;

  constructor(private readonly concurrency: number) {}

  get backlog(): number {
    return this.queue.length - this.head;
  }

  push(items: Item[]): void {
    for (const item of items) this.queue.push(item);
    this.pump();
  }

  private draining = false;
  private head = 0;

  private pump(): void {
    // Full batches while records are being made; the rest when draining.
    while (this.running < this.concurrency && this.queue.length - this.head >= (this.draining ? 1 : BATCH)) {
      // A batch may not name one key twice: the later Put wins, as it would in sequence.
      const batch = new Map<string, Item>();
      while (batch.size < BATCH && this.head < this.queue.length) {
        const item = this.queue[this.head++]!;
        batch.set(keyOf(item), item);
      }
      if (this.head > 10_000) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      this.running++;
      void this.send([...batch.values()])
        .catch((e: Error) => {
          this.failure ??= e;
        })
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.head >= this.queue.length) for (const f of this.idle.splice(0)) f();
        });
    }
  }

  /** One batch (at most 25 items); its retries of unprocessed items are batchWrite's, uncounted. */
  private async send(items: Item[]): Promise<void> {
    this.calls++;
    await batchWrite(
      items.map((put) => ({ put })),
      this.client,
    );
  }

  /** Waits until the backlog is below `limit` (back pressure for the producers). */
  async below(limit: number): Promise<void> {
    while (this.backlog > limit && !this.failure) await new Promise((ok) => setTimeout(ok, 5));
    if (this.failure) throw this.failure;
  }

  async drain(): Promise<void> {
    this.draining = true;
    this.pump();
    if (this.running > 0 || this.backlog > 0) await new Promise<void>((ok) => this.idle.push(ok));
    this.draining = false;
    if (this.failure) throw this.failure;
  }

  /**
   * The summed ADDs: the items they touch are read (BatchGetItem, consistent) and written back whole
   * with the sums added (BatchWriteItem), which is what the ADDs would have left, in ~1/25 of the calls.
   * Nothing else writes during a bulk run. Then the other captured updates, in order.
   */
  async finish(c: Captured, onProgress?: (done: number, total: number) => void): Promise<number> {
    await this.drain();
    const adds = [...c.adds.values()].filter(({ attrs }) => [...attrs.values()].some((n) => n !== 0));
    let done = 0;
    for (let i = 0; i < adds.length; i += 100) {
      const chunk = adds.slice(i, i + 100);
      const current = new Map<string, Item>();
      let keys: Item[] = chunk.map(({ key }) => ({ pk: key.pk, sk: key.sk }));
      for (let attempt = 0; keys.length > 0; attempt++) {
        if (attempt > 20) throw new Error('bench bulk path: BatchGetItem keeps returning unprocessed keys');
        this.calls++;
        const out = await this.client.send(
          new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[tableName()] ?? []) current.set(keyOf(item), item);
        keys = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Item[];
      }
      const merged = chunk.map(({ key, attrs }) => {
        const item: Item = { ...(current.get(keyOf(key)) ?? { pk: key.pk, sk: key.sk }) };
        for (const [a, n] of attrs) item[a] = ((item[a] as number | undefined) ?? 0) + n;
        return item;
      });
      this.push(merged);
      await this.drain();
      done += chunk.length;
      onProgress?.(done, adds.length);
    }
    for (const u of c.updates) {
      this.calls++;
      await this.client.send(new UpdateCommand(u));
    }
    return adds.length + c.updates.length;
  }
}

// ---------------------------------------------------------------------------------------------------
// Running handlers

const modules = new Map<string, Promise<Handler>>();
function load(handlerPath: string): Promise<Handler> {
  let m = modules.get(handlerPath);
  if (!m) {
    m = import(pathToFileURL(resolve(ROOT, `${handlerPath}.ts`)).href).then((x) => x.handler as Handler);
    modules.set(handlerPath, m);
  }
  return m;
}

/** The API Gateway event the local gateway would build for this request (see local/gateway.ts). */
function apiEvent(method: string, path: string, body: unknown, token: string): APIGatewayProxyEventV2 {
  const raw = Buffer.from(JSON.stringify(body));
  const requestId = randomUUID();
  const routeKey = `${method} ${NAMESPACE_PATH}${path}`;
  const headers = {
    'x-forwarded-proto': 'http',
    host: 'bench.bulk',
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    'content-length': String(raw.length),
  };
  return {
    version: '2.0',
    routeKey,
    rawPath: `${NAMESPACE_PATH}${path}`,
    rawQueryString: '',
    headers,
    body: raw.toString('base64'),
    isBase64Encoded: true,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host,
      domainPrefix: 'bench',
      http: {
        method,
        path: `${NAMESPACE_PATH}${path}`,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'bench',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

export interface BulkOptions {
  /** Handler module (`functions/events/create-event`) and the collection path it serves (`/events`). */
  handler: string;
  path: string;
  token: string;
  /** Handler calls in flight. */
  concurrency?: number;
  /** BatchWriteItem calls in flight. */
  writers?: number;
  /** Called about once a second with the records made so far. */
  onProgress?: (p: BulkProgress) => void;
}

export interface BulkProgress {
  done: number;
  total: number;
  seconds: number;
  backlog: number;
  phase: 'records' | 'counters';
}

export interface BulkResult {
  ids: number[];
  seconds: number;
  items: number;
  transactions: number;
  puts: number;
  /** DynamoDB calls the handlers made (cache misses, slug queries, ID blocks), by command. */
  passed: Record<string, number>;
  counters: number;
  batchCalls: number;
}

/**
 * Creates one record per body through the operation's handler, capturing its writes and writing them
 * in batches. Every body must be answered 201; anything else stops the run with the handler's reply.
 */
export async function bulkCreate(bodies: unknown[], o: BulkOptions): Promise<BulkResult> {
  installCapture();
  const handler = await load(o.handler);
  const writer = new Writer(o.writers ?? 24);
  const session = new Session((items) => writer.push(items));
  const concurrency = o.concurrency ?? 16;
  const t0 = performance.now();
  const ids = new Array<number>(bodies.length);
  let next = 0;
  let done = 0;
  const linkedTerms = new Set<number>();
  const progress = (phase: BulkProgress['phase'], d = done, total = bodies.length) =>
    o.onProgress?.({
      done: d,
      total,
      seconds: (performance.now() - t0) / 1000,
      backlog: writer.backlog,
      phase,
    });
  const timer = setInterval(() => progress('records'), 1000);
  try {
    const worker = async () => {
      while (next < bodies.length) {
        const i = next++;
        await writer.below(4000);
        const res = await als.run(session, () =>
          handler(apiEvent('POST', o.path, bodies[i], o.token), {
            functionName: o.handler,
            awsRequestId: randomUUID(),
            getRemainingTimeInMillis: () => 30_000,
          } as Context),
        );
        if (res.statusCode !== 201)
          throw new Error(
            `bench bulk path: POST ${o.path} answered ${res.statusCode} ${String(res.body).slice(0, 400)} for ${JSON.stringify(bodies[i]).slice(0, 200)}`,
          );
        const made = JSON.parse(String(res.body)) as { id: number; categories?: Item[]; tags?: Item[] };
        ids[i] = Number(made.id);
        for (const t of [...(made.categories ?? []), ...(made.tags ?? [])]) linkedTerms.add(Number(t.id));
        done++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
    await writeCounters(session);
    await writer.drain();
    clearInterval(timer);
    const counters = await writer.finish(session.out, (d, total) => progress('counters', d, total));
    // Each create synced its terms' in-use flags from cached reads, before its counts were written: the
    // same sync, on the counts as written (shared/repositories/term-use.ts).
    await syncTermsInUse(linkedTerms);
    return {
      ids,
      seconds: (performance.now() - t0) / 1000,
      items: session.items,
      transactions: session.transactions,
      puts: session.puts,
      passed: Object.fromEntries(session.passed),
      counters,
      batchCalls: writer.calls,
    };
  } finally {
    clearInterval(timer);
    // Async hooks cost every promise something: off while no bulk run needs the scope.
    als.disable();
  }
}

// ---------------------------------------------------------------------------------------------------
// Checking the bulk path against the API

/** Every item of the table (the check runs while the table is small). */
export async function scanTable(): Promise<Map<string, Item>> {
  const client = ownClient();
  const out = new Map<string, Item>();
  let start: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) out.set(keyOf(item), item);
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** What a set of writes did: per item, the attributes it changed (numbers as deltas). */
function delta(before: Map<string, Item>, after: Map<string, Item>): Item[] {
  const out: Item[] = [];
  for (const [k, item] of after) {
    const old = before.get(k);
    const changed: Item = {};
    for (const [a, v] of Object.entries(item)) {
      if (a === 'pk' || a === 'sk') continue;
      const was = old?.[a];
      if (typeof v === 'number' && (was === undefined || typeof was === 'number')) {
        const d = v - ((was as number | undefined) ?? 0);
        if (d !== 0) changed[a] = d;
      } else if (JSON.stringify(v) !== JSON.stringify(was)) changed[a] = v;
    }
    for (const a of Object.keys(old ?? {})) if (!(a in item)) changed[a] = '<removed>';
    if (Object.keys(changed).length > 0 || !old) out.push({ pk: item.pk, sk: item.sk, ...changed });
  }
  for (const [k, item] of before) if (!after.has(k)) out.push({ pk: item.pk, sk: item.sk, deleted: true });
  return out;
}

/** Wall times of the write itself (publication and modification dates): never the same twice. */
const WRITE_TIMES = new Set(['date', 'date_utc', 'modified', 'modified_utc', 'expiration']);
const ISO_INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/**
 * Replaces what differs between two writes of the same bodies by placeholders: record IDs (`E3`),
 * slugs (`S3`, so `-2` suffixes do not count) and slug counters' values, write times; status- and
 * term-total shards are drawn at random and are merged.
 */
function normalize(items: Item[], ids: number[], slugs: string[]): Map<string, Item> {
  const idIndex = new Map(ids.map((id, i) => [String(id), i]));
  const padIndex = new Map(ids.map((id, i) => [String(id).padStart(12, '0'), i]));
  const slugIndex = new Map(slugs.map((s, i) => [s, i]));
  const str = (s: string) =>
    s
      .replace(ISO_INSTANT, '<instant>')
      .split('#')
      .map((seg, j, all) => {
        if (slugIndex.has(seg)) return `S${slugIndex.get(seg)}`;
        if (padIndex.has(seg)) return `E${padIndex.get(seg)}`;
        if (j > 0 && all[j - 1] === 'POST' && idIndex.has(seg)) return `E${idIndex.get(seg)}`;
        return seg;
      })
      .join('#');
  const value = (v: unknown, attr: string): unknown => {
    if (typeof v === 'string') return str(v);
    if (typeof v === 'number' && /(^id$|Id$)/.test(attr) && idIndex.has(String(v)))
      return `E${idIndex.get(String(v))}`;
    if (Array.isArray(v)) return v.map((x) => value(x, attr));
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v as Item)
          .filter(([a]) => !WRITE_TIMES.has(a))
          .map(([a, x]) => [a, value(x, a)]),
      );
    return v;
  };
  const out = new Map<string, Item>();
  for (const item of items) {
    // ID sequences: the bulk path reserves IDs in blocks (IDs are not compared).
    if (item.pk === 'COUNTER') continue;
    const n = value(item, '') as Item;
    if (/^COUNT#/.test(String(n.pk)) && /^(STATUS|TERMS)#/.test(String(n.sk)))
      n.sk = `${String(n.sk).split('#')[0]}#*`;
    // A slug counter holds the highest suffix handed out, which depends on what was created before.
    if (String(n.pk).startsWith('SLUGSEQ#') && 'n' in n) n.n = '<suffix>';
    const k = `${String(n.pk)} | ${String(n.sk)}`;
    const prev = out.get(k);
    if (prev) {
      for (const [a, v] of Object.entries(n))
        if (typeof v === 'number') prev[a] = ((prev[a] as number | undefined) ?? 0) + v;
    } else out.set(k, n);
  }
  return out;
}

export interface SampleCheck {
  items: number;
  differences: string[];
}

/**
 * Creates `bodies` through `viaApi` (the HTTP API), then the same bodies through the bulk path, and
 * compares every item each produced (new items whole, existing ones by what changed). Returns the
 * differences; an empty list means the bulk path writes what the API writes.
 */
export async function verifyBulk(
  bodies: unknown[],
  viaApi: (body: unknown) => Promise<number>,
  o: BulkOptions,
): Promise<SampleCheck> {
  // Whether a term is in use is state, not a delta: the sample's terms are put in use first, so that
  // both runs below find them so (bulkCreate syncs them as the API does; the counts are compared).
  for (const b of bodies) await viaApi(b);
  const s0 = await scanTable();
  const apiIds: number[] = [];
  for (const b of bodies) apiIds.push(await viaApi(b));
  const s1 = await scanTable();
  const { ids: bulkIds } = await bulkCreate(bodies, { ...o, concurrency: 1, onProgress: undefined });
  const s2 = await scanTable();
  const slugOf = (snap: Map<string, Item>, id: number) =>
    String(snap.get(keyOf(keys.post(id)))?.slug ?? snap.get(keyOf(keys.term(id)))?.slug ?? `#${id}`);
  const a = normalize(
    delta(s0, s1),
    apiIds,
    apiIds.map((id) => slugOf(s1, id)),
  );
  const b = normalize(
    delta(s1, s2),
    bulkIds,
    bulkIds.map((id) => slugOf(s2, id)),
  );
  const differences: string[] = [];
  for (const [k, item] of a) {
    const other = b.get(k);
    if (!other) differences.push(`only the API wrote ${k}: ${JSON.stringify(item).slice(0, 300)}`);
    else if (JSON.stringify(sortKeys(item)) !== JSON.stringify(sortKeys(other)))
      differences.push(
        `${k} differs:\n      API  ${JSON.stringify(sortKeys(item)).slice(0, 400)}\n      bulk ${JSON.stringify(sortKeys(other)).slice(0, 400)}`,
      );
  }
  for (const [k, item] of b)
    if (!a.has(k)) differences.push(`only the bulk path wrote ${k}: ${JSON.stringify(item).slice(0, 300)}`);
  return { items: a.size, differences };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Item)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}
