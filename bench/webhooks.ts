/**
 * `npm run bench -- --webhooks [--rate 20] [--seconds 20]`: how soon a subscriber is told (issue 28),
 * on the bench's stack with the local webhook engine (local/webhooks.ts) on its table's stream and a
 * local receiver subscribed to every change. Events are created at a steady rate (sent on schedule,
 * not waiting for one another); each create's delivery is matched by its record's ID, and its latency
 * is from the create's 2xx reaching the bench to the receiver answering 200. Beside it, what one create
 * costs in DynamoDB with and without a subscription (calls, read and write units from bench/usage.ts):
 * the stream does the webhook work, so the two must be equal. The engine is not running while those are
 * counted, so only the request's own calls are (its polling would go through the same client).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ddb } from '../shared/db/client';
import { type RunInfo, startRunInfo } from './run-info';
import { settled, usage, writeCalls } from './usage';

export interface CreateCost {
  creates: number;
  /** Mean time of one create, sent one at a time (the bench's accounting included). */
  ms_each: number;
  calls: number;
  writes: number;
  write_units: number;
  read_units: number;
}

export interface WebhooksResults {
  rate: number;
  seconds: number;
  writes: number;
  /** Creates answered with something other than 201. */
  write_errors: number;
  delivered: number;
  missing: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  /**
   * The latency in two parts (p50 / p99, ms, from the deliveries' created_utc and first attempt's
   * at_utc): the create's 201 to its delivery made by the dispatcher, and that to the attempt's start.
   */
  dispatch_ms: { p50: number; p99: number };
  send_ms: { p50: number; p99: number };
  /** The creates' own answer times at this rate: how loaded the stack was. */
  create_ms: { p50: number; p99: number };
  deliveries_per_second: number;
  create_without_subscription: CreateCost;
  create_with_subscription: CreateCost;
  run: RunInfo;
}

interface Options {
  base: string;
  token: string;
  rate: number;
  seconds: number;
  commit: string;
  /** Starts the webhook engine of the bench's table; resolves to its stop. */
  startEngine: () => Promise<() => Promise<void>>;
  log: (line: string) => void;
}

/** Creates measured one at a time for their cost, with and without a subscription. */
const COST_CREATES = 20;
/** How long the bench waits for the last deliveries after the last write. */
const DRAIN_MS = 120_000;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;

/** A receiver that answers 200 at once and notes when each created record's delivery came. */
async function startReceiver() {
  const created = new Map<number, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { id: number } };
      if (body.type === 'event.created' && !created.has(body.data.id))
        created.set(body.data.id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    created,
    requests: () => requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export async function runWebhooksBench(o: Options): Promise<WebhooksResults> {
  const finished = startRunInfo(o.commit);
  const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  let n = 0;
  const create = async () => {
    // A day and a title of the same length for each: every create writes items of the same sizes.
    const day = new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`${o.base}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Webhook bench ${String(n++).padStart(6, '0')}`,
        start_date: `${day} 10:00`,
        end_date: `${day} 11:00`,
        status: 'publish',
      }),
    });
    const body = (await res.json()) as { id: number };
    return { status: res.status, id: body.id, at: performance.now(), wall: Date.now() };
  };
  const cost = async (): Promise<CreateCost> => {
    await settled();
    const before = { ...usage, writes: writeCalls.count };
    const t0 = performance.now();
    for (let i = 0; i < COST_CREATES; i++) {
      const r = await create();
      if (r.status !== 201)
        throw new Error(`A create answered ${r.status}: the bench's stack is not working.`);
    }
    const ms = (performance.now() - t0) / COST_CREATES;
    await settled();
    const per = (x: number) => round(x / COST_CREATES, 2);
    return {
      creates: COST_CREATES,
      ms_each: round(ms, 0),
      calls: per(usage.calls - before.calls),
      writes: per(writeCalls.count - before.writes),
      write_units: per(usage.wcu - before.wcu),
      read_units: per(usage.rcu - before.rcu),
    };
  };

  const receiver = await startReceiver();
  let stopEngine: (() => Promise<void>) | undefined;
  try {
    // Unmeasured: the create function's first requests load its modules.
    for (let i = 0; i < 5; i++) await create();
    const without = await cost();
    o.log(
      `A create without a subscription: ${without.calls} DynamoDB calls, ${without.writes} writes, ${without.write_units} write units, ${without.read_units} read units; ${without.ms_each} ms each, one at a time.`,
    );
    const subscription = await fetch(`${o.base}/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['*'], description: 'bench' }),
    });
    if (subscription.status !== 201)
      throw new Error(`POST /webhooks answered ${subscription.status}: ${await subscription.text()}`);
    const hook = (await subscription.json()) as { id: number };
    const withSub = await cost();
    o.log(
      `A create with a subscription to every change: ${withSub.calls} calls, ${withSub.writes} writes, ${withSub.write_units} write units, ${withSub.read_units} read units; ${withSub.ms_each} ms each.`,
    );

    // Counted calls are done: the accounting (a read-back of each write) is taken off the shared client
    // so that it does not load DynamoDB Local while deliveries are timed.
    ddb.middlewareStack.remove('benchConsumedCapacity');
    // The engine on, and the creates made so far delivered before anything is timed.
    stopEngine = await o.startEngine();
    const warm = Date.now() + DRAIN_MS;
    while (receiver.created.size < COST_CREATES && Date.now() < warm)
      await new Promise((r) => setTimeout(r, 50));
    if (receiver.created.size < COST_CREATES)
      throw new Error(
        `The engine delivered ${receiver.created.size} of ${COST_CREATES} creates in 2 minutes.`,
      );

    const writes = o.rate * o.seconds;
    o.log(`${writes} creates at ${o.rate} a second, each delivered to the receiver:`);
    const t0 = performance.now();
    const acks: Array<{ status: number; id: number; at: number; wall: number; ms: number }> = [];
    const sent: Promise<void>[] = [];
    for (let i = 0; i < writes; i++) {
      const due = t0 + (i * 1000) / o.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(
        create().then(
          (r) => void acks.push({ ...r, ms: r.at - due }),
          () => void acks.push({ status: 0, id: 0, at: 0, wall: 0, ms: performance.now() - due }),
        ),
      );
      if ((i + 1) % o.rate === 0)
        process.stderr.write(
          `\r  ${i + 1} of ${writes} sent, ${receiver.created.size - COST_CREATES} delivered`,
        );
    }
    await Promise.all(sent);
    const ok = acks.filter((a) => a.status === 201);
    const deadline = Date.now() + DRAIN_MS;
    while (ok.some((a) => !receiver.created.has(a.id)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    process.stderr.write('\n');

    const latencies = ok
      .filter((a) => receiver.created.has(a.id))
      .map((a) => receiver.created.get(a.id)! - a.at)
      .sort((a, b) => a - b);
    // When the engine made each delivery and first sent it, from the deliveries' list (same clock).
    const made = new Map<number, { created: number; sent: number }>();
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = (await (
        await fetch(
          `${o.base}/webhooks/${hook.id}/deliveries?per_page=100${cursor ? `&cursor=${cursor}` : ''}`,
          {
            headers,
          },
        )
      ).json()) as {
        deliveries: Array<{
          record_id?: number;
          type: string;
          created_utc: string;
          attempts: Array<{ at_utc: string }>;
        }>;
        next_cursor?: string;
      };
      for (const d of page.deliveries)
        if (d.type === 'event.created' && d.record_id !== undefined && d.attempts[0])
          made.set(d.record_id, {
            created: Date.parse(d.created_utc),
            sent: Date.parse(d.attempts[0].at_utc),
          });
      cursor = page.next_cursor;
    }
    const parts = ok.flatMap((a) => {
      const m = made.get(a.id);
      return m ? [{ dispatch: m.created - a.wall, send: m.sent - m.created }] : [];
    });
    const spread = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { p50: round(quantile(sorted, 0.5), 0), p99: round(quantile(sorted, 0.99), 0) };
    };
    const answers = acks.map((a) => a.ms).sort((a, b) => a - b);
    const arrivals = ok.filter((a) => receiver.created.has(a.id)).map((a) => receiver.created.get(a.id)!);
    const span = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
    return {
      rate: o.rate,
      seconds: o.seconds,
      writes,
      write_errors: writes - ok.length,
      delivered: latencies.length,
      missing: ok.length - latencies.length,
      latency_ms: {
        p50: round(quantile(latencies, 0.5), 0),
        p90: round(quantile(latencies, 0.9), 0),
        p99: round(quantile(latencies, 0.99), 0),
        max: round(latencies.at(-1) ?? NaN, 0),
      },
      dispatch_ms: spread(parts.map((p) => p.dispatch)),
      send_ms: spread(parts.map((p) => p.send)),
      create_ms: { p50: round(quantile(answers, 0.5), 0), p99: round(quantile(answers, 0.99), 0) },
      deliveries_per_second: round(span > 0 ? (arrivals.length - 1) / span : 0),
      create_without_subscription: without,
      create_with_subscription: withSub,
      run: finished(),
    };
  } finally {
    await stopEngine?.();
    await receiver.close();
  }
}

export const WEBHOOKS_MARKERS = {
  begin: '<!-- bench-webhooks-report:begin',
  end: '<!-- bench-webhooks-report:end -->',
};

/** The Markdown of a webhooks run, between WEBHOOKS_MARKERS (docs/benchmarks.md). */
export function renderWebhooksReport(r: WebhooksResults, source: string): string {
  const c = (x: CreateCost) => `${x.calls} | ${x.writes} | ${x.write_units} | ${x.read_units} | ${x.ms_each}`;
  return [
    `${WEBHOOKS_MARKERS.begin} source=${source}: written by \`npm run bench -- --webhooks --report\`; edits between these markers are overwritten -->`,
    `### Webhooks (${r.rate} creates a second for ${r.seconds} s)`,
    '',
    `Commit ${r.run.commit}, ${r.run.date}, Node ${r.run.node}, ${r.run.cpus} CPUs; load average (1, 5, 15 min) ${r.run.loadavg_before.join(', ')} before and ${r.run.loadavg_after.join(', ')} after. ` +
      'The local stack in the bench process (DynamoDB Local in memory, the local webhook engine on its stream), a receiver on the same machine subscribed to every change and answering 200 at once. ' +
      "Creates are sent on schedule, not waiting for one another; a create's time is from when it was due to its answer. " +
      "Delivery latency: from a create's 201 reaching the bench to the receiver answering its delivery.",
    '',
    '| Creates | Answered 201 | Create p50 / p99 ms | Delivered | Missing | Delivery p50 ms | p90 ms | p99 ms | max ms | Deliveries/s |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    `| ${r.writes} | ${r.writes - r.write_errors} | ${r.create_ms.p50} / ${r.create_ms.p99} | ${r.delivered} | ${r.missing} | ${r.latency_ms.p50} | ${r.latency_ms.p90} | ${r.latency_ms.p99} | ${r.latency_ms.max} | ${r.deliveries_per_second} |`,
    '',
    `Of the delivery latency, from the 201 to the dispatcher making the delivery: p50 ${r.dispatch_ms.p50} ms, p99 ${r.dispatch_ms.p99} ms; from then to the first attempt: p50 ${r.send_ms.p50} ms, p99 ${r.send_ms.p99} ms.`,
    '',
    `What one create costs (mean of ${r.create_with_subscription.creates}, sent one at a time, the engine not running):`,
    '',
    '| Create | DynamoDB calls | of which writes | Write units | Read units | ms each |',
    '|---|--:|--:|--:|--:|--:|',
    `| without a subscription | ${c(r.create_without_subscription)} |`,
    `| with a subscription to every change | ${c(r.create_with_subscription)} |`,
    WEBHOOKS_MARKERS.end,
  ].join('\n');
}
