import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CalEventsStack } from '../../infra/stack';
import { localClient } from '../../local/dynamo';
import { operations, routeOf } from '../../shared/contracts';
import { LOCAL_ISSUER } from '../../shared/http/auth';
import { OPERATION_FUNCTION_PREFIX_ENV } from '../../shared/http/dispatch';
import { WEBHOOK_QUEUE_URL_ENV } from '../../shared/config';
import {
  type AssemblyFunction,
  type AssemblyTemplate,
  assemblyFunctions,
  assemblyTemplates,
} from '../support/cloud-assembly';
import { type AwsCall, type Recorder, startRecorder } from '../support/aws-call-recorder';
import { type FakeSqs, startFakeSqs } from '../support/fake-sqs';
import { signToken } from '../support/stack';
import { forDispatcher, streamEvent, tableStream } from '../support/table-stream';

/**
 * What ships is what was tested (issue 25): the app synthesized with its real bundling (esbuild, as
 * `cdk deploy` runs it), then every function loaded from the cloud assembly by the template's handler
 * with the template's environment, behind a gateway built from the template's routes, against a
 * DynamoDB Local table created from the template's table definition. A smoke set calls every route once
 * and writes every resource. Each function reaches DynamoDB through a recorder of its own, and what it
 * did is checked against its role in the template: an action its role lacks, or a write by a
 * read-only function, fails here rather than in AWS. (Recorded during this smoke set only.)
 *
 * Synthesized without the page (`site=false`): its hosting holds none of the API's functions.
 */
const STACK = 'CalEvents-smoke';
const SITE_URL = 'https://calendar.example.org';
const outdir = mkdtempSync(join(tmpdir(), 'cal-assembly-'));
const tableName = `smoke-${Date.now()}`;
const dynamo = process.env.DYNAMODB_ENDPOINT!;

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
interface Loaded {
  fn: AssemblyFunction;
  handler: Handler;
  env: Record<string, string>;
  recorder: Recorder;
  /** Lambda Invoke calls the function made (the `$default` one hands slashed paths on). */
  invoked: string[];
}

let templates: AssemblyTemplate[];
const functions = new Map<string, Loaded>();
let routes: Array<{ method: string; pattern: RegExp; params: string[]; routeKey: string; target: Loaded }>;
let fallback: Loaded;
/** The webhook engine's delivery queue (issue 28): the functions' SQS client sends here. */
let sqs: FakeSqs;

/** The template's environment of a function, its deploy-time values replaced by the local stack's. */
function environmentOf(fn: AssemblyFunction, endpoint: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string') env[key] = value;
    else if (key === 'TABLE_NAME') env[key] = tableName;
    else if (key === 'AUTH_ISSUER') env[key] = LOCAL_ISSUER;
    else if (key === WEBHOOK_QUEUE_URL_ENV) env[key] = sqs.queueUrl;
    else if (key === 'AUTH_JWKS_URL')
      continue; // the local issuer's tokens are checked with its secret
    else throw new Error(`${fn.name}: no local value for ${key} = ${JSON.stringify(value)}`);
  }
  // As in Lambda: a setting the template lacks fails the function at cold start (shared/config.ts).
  // Lambda's runtime gives the role's credentials as these variables; the fake SQS takes any.
  return {
    ...env,
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
}

/** The app's own settings, which env.ts sets for the other tests: here only the template's count. */
const APP_KEYS = ['TABLE_NAME', 'SITE_URL', 'SITE_TIMEZONE', 'MAX_PER_PAGE', 'AUTH_ISSUER', 'AUTH_JWKS_URL'];

async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const k of APP_KEYS) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** The table as the template declares it: keys, indexes, billing, time to live and stream. */
async function createTableFromTemplate(): Promise<Record<string, any>> {
  const [table] = templates.flatMap((t) =>
    Object.values(t.resources).filter((r) => r.Type === 'AWS::DynamoDB::Table'),
  );
  const p = table!.Properties;
  const input: CreateTableCommandInput = {
    TableName: tableName,
    BillingMode: p.BillingMode,
    AttributeDefinitions: p.AttributeDefinitions,
    KeySchema: p.KeySchema,
    GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
    ...(p.StreamSpecification
      ? { StreamSpecification: { StreamEnabled: true, ...p.StreamSpecification } }
      : {}),
  };
  const client = localClient(dynamo);
  try {
    await client.send(new CreateTableCommand(input));
    if (p.TimeToLiveSpecification?.Enabled)
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: p.TimeToLiveSpecification,
        }),
      );
  } finally {
    client.destroy();
  }
  return p;
}

const context = (fn: AssemblyFunction, requestId: string) =>
  ({
    functionName: fn.name,
    awsRequestId: requestId,
    // As the local gateway gives under test (test/support/env.ts): a loaded machine is not a timeout.
    getRemainingTimeInMillis: () => Number(process.env.CAL_LOCAL_FUNCTION_TIMEOUT_MS),
  }) as unknown as Context;

async function run(target: Loaded, event: APIGatewayProxyEventV2) {
  return withEnv(target.env, () => target.handler(event, context(target.fn, event.requestContext.requestId)));
}

beforeAll(async () => {
  sqs = await startFakeSqs();
  const app = new App({ outdir, context: { site: 'false', siteUrl: SITE_URL } });
  new CalEventsStack(app, STACK);
  app.synth();
  templates = assemblyTemplates(outdir);
  for (const fn of assemblyFunctions(outdir, templates)) {
    const recorder = await startRecorder(dynamo);
    const env = environmentOf(fn, recorder.endpoint);
    const mod = await withEnv(env, () => import(pathToFileURL(fn.module).href));
    functions.set(fn.name, { fn, handler: mod[fn.exportName] as Handler, env, recorder, invoked: [] });
    // The `$default` function invokes the operations' functions by name: here, the loaded ones.
    if (typeof mod.setInvoker === 'function') {
      const loaded = functions.get(fn.name)!;
      mod.setInvoker(async (operation: { operationId: string }, event: APIGatewayProxyEventV2) => {
        const name = `${env[OPERATION_FUNCTION_PREFIX_ENV]}${operation.operationId}`;
        loaded.invoked.push(name);
        const target = functions.get(name);
        if (!target)
          throw Object.assign(new Error(`Function not found: ${name}`), {
            name: 'ResourceNotFoundException',
          });
        return run(target, event);
      });
    }
  }
  await createTableFromTemplate();
  // The gateway: each template's routes, to the function their integration names (same template).
  routes = [];
  for (const t of templates) {
    for (const route of Object.values(t.resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')) {
      const integration = t.resources[route.Properties.Target['Fn::Join'][1][1].Ref as string]!;
      const logicalId = integration.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      const target = [...functions.values()].find(
        (f) => f.fn.template === t && f.fn.logicalId === logicalId,
      )!;
      const routeKey = String(route.Properties.RouteKey);
      if (routeKey === '$default') {
        fallback = target;
        continue;
      }
      const [method, path] = routeKey.split(' ') as [string, string];
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '([^/]+)')}$`);
      routes.push({ method, pattern, params, routeKey, target });
    }
  }
  // API Gateway prefers a literal segment to a parameter (`/events/ical` over `/events/{id}`).
  routes.sort((a, b) => a.params.length - b.params.length);
}, 900_000);

afterAll(async () => {
  for (const f of functions.values()) await f.recorder.close();
  await sqs?.close();
  rmSync(outdir, { recursive: true, force: true });
});

let requestCount = 0;
/** A request through the template's gateway: an exact route key, else `$default`, as API Gateway routes. */
async function send(
  method: string,
  path: string,
  o: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  // Paths below another namespace are given in full (`/cal/tickets/v1/tickets`).
  const full = path.startsWith('/cal/') ? path : `/cal/events/v1${path}`;
  const [rawPath, rawQueryString = ''] = full.split('?') as [string, string?];
  const route = routes.find((r) => r.method === method && r.pattern.test(rawPath));
  const values = route ? route.pattern.exec(rawPath)!.slice(1) : [];
  const pathParameters =
    route && route.params.length > 0
      ? Object.fromEntries(route.params.map((p, i) => [p, decodeURIComponent(values[i]!)]))
      : undefined;
  const headers: Record<string, string> = { host: 'api.test', 'x-forwarded-proto': 'https', ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const routeKey = route?.routeKey ?? '$default';
  const requestId = `smoke-${++requestCount}`;
  const event = {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(pathParameters ? { pathParameters } : {}),
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'smoke',
      domainName: 'api.test',
      domainPrefix: 'api',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'smoke' },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  } as APIGatewayProxyEventV2;
  const res = await run(route?.target ?? fallback, event);
  const raw = String(res.body ?? '');
  const text = res.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  const json = /^\s*[[{]/.test(text);
  return {
    status: res.statusCode,
    headers: res.headers ?? {},
    text,
    body: json && text ? JSON.parse(text) : undefined,
    routeKey,
  };
}

/** Route keys the smoke set reached. */
const reached = new Set<string>();
const ok = async (expected: number, ...args: Parameters<typeof send>) => {
  const res = await send(...args);
  expect(res.status, `${args[0]} ${args[1]}: ${res.text.slice(0, 300)}`).toBe(expected);
  reached.add(res.routeKey);
  return res;
};

describe('the synthesized app, run from its cloud assembly', () => {
  it('loads a bundle for every operation, the $default route and the scheduled jobs, each with its fixed name', () => {
    expect([...functions.keys()].sort()).toEqual(
      [
        ...operations.map((op) => `${STACK}-${op.operationId}`),
        `${STACK}-noRoute`,
        `${STACK}-extendSeries`,
        `${STACK}-resyncImports`,
        `${STACK}-finishSeriesWrites`,
        `${STACK}-publishScheduled`,
        `${STACK}-sendMail`,
        `${STACK}-webhookDispatch`,
        `${STACK}-webhookDeliver`,
      ].sort(),
    );
  });

  it('creates the table from the template: keys, every index and the time to live', async () => {
    const p = await createTableFromTemplate().catch((e: Error) => ({ error: e.name }));
    expect(p).toEqual({ error: 'ResourceInUseException' }); // made in beforeAll, from the same definition
  });

  it('answers the smoke set: every route once, a write of each resource, a preflight and a slashed path', async () => {
    const admin = await signToken('administrator');
    await ok(200, 'GET', '');
    await ok(200, 'GET', '/doc');
    await ok(200, 'GET', '/changes');

    const terms: Record<string, number> = {};
    for (const [collection, id] of [
      ['categories', 'Category'],
      ['tags', 'Tag'],
    ] as const) {
      const made = await ok(201, 'POST', `/${collection}`, { token: admin, body: { name: `Smoke ${id}` } });
      terms[collection] = made.body.id;
      await ok(200, 'GET', `/${collection}`);
      await ok(200, 'GET', `/${collection}/${made.body.id}`);
      for (const method of ['POST', 'PUT', 'PATCH'])
        await ok(200, method, `/${collection}/${made.body.id}`, {
          token: admin,
          body: { description: method },
        });
    }

    const posts = [
      ['venues', 'venue'],
      ['organizers', 'organizer'],
      ['events', 'title'],
    ] as const;
    const linked: Record<string, number> = {};
    const deletions: Array<() => Promise<unknown>> = [];
    const urls: Record<string, string> = {};
    for (const [collection, field] of posts) {
      const body = (name: string) =>
        collection === 'events'
          ? {
              title: name,
              start_date: '2031-07-01 20:00:00',
              end_date: '2031-07-01 22:00:00',
              venue: linked.venues,
              organizer: [linked.organizers],
              categories: [terms.categories],
              tags: [terms.tags],
            }
          : { [field]: name };
      const [a, b] = [
        await ok(201, 'POST', `/${collection}`, { token: admin, body: body(`Smoke ${collection} A`) }),
        await ok(201, 'POST', `/${collection}`, { token: admin, body: body(`Smoke ${collection} B`) }),
      ];
      linked[collection] = a.body.id;
      urls[collection] = a.body.url;
      await ok(200, 'GET', `/${collection}`);
      await ok(200, 'GET', `/${collection}/${a.body.id}`);
      await ok(200, 'GET', `/${collection}/by-slug/${b.body.slug}`);
      for (const method of ['POST', 'PUT', 'PATCH']) {
        await ok(200, method, `/${collection}/${a.body.id}`, {
          token: admin,
          body: { [field]: `A ${method}` },
        });
        await ok(200, method, `/${collection}/by-slug/${b.body.slug}`, {
          token: admin,
          body: { [field]: `B ${method}` },
        });
      }
      if (collection === 'events') {
        const feed = await ok(200, 'GET', '/events/ical');
        expect(feed.text).toContain('BEGIN:VCALENDAR');
        await ok(200, 'GET', `/events/${a.body.id}/ical`);
      }
      // Deleted at the end, events first: the venue and the organizer are the events' links.
      deletions.unshift(
        () => ok(200, 'DELETE', `/${collection}/${a.body.id}`, { token: admin }),
        () => ok(200, 'DELETE', `/${collection}/by-slug/${b.body.slug}`, { token: admin }),
      );
    }
    for (const remove of deletions) await remove();
    for (const collection of ['categories', 'tags'])
      await ok(200, 'DELETE', `/${collection}/${terms[collection]}?force=true`, { token: admin });

    // Webhooks (administrators): a public https address given as an address, so saving it needs no DNS.
    const hook = await ok(201, 'POST', '/webhooks', {
      token: admin,
      body: { url: 'https://93.184.215.14/hook', events: ['event.*'] },
    });
    const hookPath = `/webhooks/${hook.body.id}`;
    await ok(200, 'GET', '/webhooks', { token: admin });
    await ok(200, 'GET', hookPath, { token: admin });
    await ok(200, 'PATCH', hookPath, { token: admin, body: { description: 'Smoke' } });
    await ok(200, 'POST', `${hookPath}/rotate-secret`, { token: admin });
    await ok(200, 'POST', `${hookPath}/ping`, { token: admin });
    await ok(200, 'GET', `${hookPath}/deliveries`, { token: admin });
    await ok(404, 'POST', `${hookPath}/deliveries/msg_none/retry`, { token: admin });
    await ok(200, 'DELETE', hookPath, { token: admin });

    // Tickets and RSVP (issue 42), below their own namespace.
    const tk = (p: string) => `/cal/tickets/v1${p}`;
    await ok(200, 'GET', tk(''));
    const ticketed = await ok(201, 'POST', '/events', {
      token: admin,
      body: {
        title: 'Smoke ticketed',
        status: 'publish',
        start_date: '2031-03-01 18:00:00',
        end_date: '2031-03-01 19:00:00',
      },
    });
    const seat = await ok(201, 'POST', tk('/tickets'), {
      token: admin,
      body: { post_id: ticketed.body.id, title: 'Smoke seat', capacity: 1 },
    });
    const seatPath = tk(`/tickets/${seat.body.id}`);
    await ok(200, 'GET', tk('/tickets'));
    await ok(200, 'GET', seatPath);
    for (const method of ['PUT', 'POST', 'PATCH'])
      await ok(200, method, seatPath, { token: admin, body: { title: `Seat ${method}` } });
    const guest = { ticket_id: seat.body.id, full_name: 'Smoke guest' };
    const attendee = await ok(201, 'POST', tk('/attendees'), { body: { ...guest, email: 'a@example.com' } });
    await ok(409, 'POST', tk('/attendees'), { body: { ...guest, email: 'b@example.com' } });
    const attendeePath = tk(`/attendees/${attendee.body.id}`);
    // The code is the attendee's, from their e-mail: a wrong one is refused, reading the attendee.
    const qr = await ok(403, 'POST', tk('/qr'), {
      token: admin,
      body: { ticket_id: attendee.body.id, security_code: '0000000000' },
    });
    expect(qr.body.code).toBe('security_code_not_valid');
    await ok(200, 'GET', tk(`/attendees?ticket_id=${seat.body.id}`), { token: admin });
    await ok(200, 'GET', attendeePath, { token: admin });
    for (const [method, check_in] of [
      ['PUT', true],
      ['POST', false],
      ['PATCH', true],
    ] as const)
      await ok(200, method, attendeePath, { token: admin, body: { check_in } });
    await ok(200, 'DELETE', `${attendeePath}?token=${attendee.body.token}`);
    // A ticket somebody registered for stays; one nobody did is deleted.
    await ok(409, 'DELETE', seatPath, { token: admin });
    const spare = await ok(201, 'POST', tk('/tickets'), {
      token: admin,
      body: { post_id: ticketed.body.id, title: 'Spare' },
    });
    await ok(200, 'DELETE', tk(`/tickets/${spare.body.id}`), { token: admin });
    await ok(200, 'GET', '/events?ticketed=true');

    // Feed imports (editors and administrators): the feed given as text, so the smoke fetches nothing.
    const calendarText = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:smoke@test']
      .concat(['DTSTART:20310301T180000Z', 'SUMMARY:Smoke import', 'END:VEVENT', 'END:VCALENDAR'])
      .join('\r\n');
    const imported = await ok(201, 'POST', '/imports', { token: admin, body: { calendar: calendarText } });
    expect(imported.body.last_run.created).toBe(1);
    const importPath = `/imports/${imported.body.id}`;
    await ok(200, 'GET', '/imports', { token: admin });
    await ok(200, 'GET', importPath, { token: admin });
    await ok(200, 'PATCH', importPath, { token: admin, body: { status: 'draft' } });
    await ok(200, 'DELETE', importPath, { token: admin });

    // `$default`: a trailing slash handed to the operation's function, a preflight, an unknown path.
    const [slashed, direct] = [await ok(200, 'GET', '/events/'), await ok(200, 'GET', '/events')];
    expect(slashed.text).toBe(direct.text);
    expect(functions.get(`${STACK}-noRoute`)!.invoked).toEqual([`${STACK}-listEvents`]);
    const preflight = await ok(204, 'OPTIONS', '/events/1', {
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.headers['Access-Control-Allow-Origin']).toBe('*');
    await ok(404, 'GET', '/nope');

    const routeKeys = operations.flatMap((op) => op.methods.map((m) => `${m} ${routeOf(op)}`));
    expect([...reached].sort()).toEqual([...routeKeys, '$default'].sort());
    // The links were built from the template's SITE_URL.
    expect(Object.values(urls)).toHaveLength(3);
    for (const url of Object.values(urls)) expect(url).toMatch(new RegExp(`^${SITE_URL}/`));
  }, 300_000);

  it('runs the daily extend job of recurring events (issue 27): an open-ended series reaches the moved horizon', async () => {
    const admin = await signToken('administrator');
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const series = await ok(201, 'POST', '/events', {
      token: admin,
      body: {
        title: 'Smoke series',
        start_date: `${day} 20:00:00`,
        end_date: `${day} 22:00:00`,
        recurrence: ['RRULE:FREQ=MONTHLY'],
      },
    });
    const job = functions.get(`${STACK}-extendSeries`)!;
    // As the schedule would run it 62 days later: the horizon (the template's 24 months) moves on.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 62 * 86_400_000);
    try {
      const result = await withEnv(job.env, () =>
        (job.handler as unknown as (e: object, c: Context) => Promise<Record<string, number>>)(
          { time: new Date().toISOString() },
          context(job.fn, 'schedule-1'),
        ),
      );
      expect(result).toMatchObject({ failed: 0 });
      expect(result.series).toBeGreaterThanOrEqual(1);
      expect(result.added).toBeGreaterThanOrEqual(1);
    } finally {
      vi.useRealTimers();
    }
    const listed = await ok(200, 'GET', `/events?series=${series.body.id}&per_page=50&end_date=2040-01-01`);
    expect(listed.body.total).toBeGreaterThan(25);
  }, 300_000);

  it('runs the re-sync job of feed imports (issue 30) as its schedule does: nothing due, nothing fetched', async () => {
    const job = functions.get(`${STACK}-resyncImports`)!;
    const result = await withEnv(job.env, () =>
      (job.handler as unknown as (e: object, c: Context) => Promise<{ ran: number }>)(
        { time: new Date().toISOString() },
        context(job.fn, 'resync-1'),
      ),
    );
    expect(result).toEqual({ ran: 0 });
  });

  it('runs the finisher of series writes (issue 27) as its schedule does: nothing left, nothing fails', async () => {
    const job = functions.get(`${STACK}-finishSeriesWrites`)!;
    const result = await withEnv(job.env, () =>
      (job.handler as unknown as (e: object, c: Context) => Promise<Record<string, number>>)(
        { time: new Date().toISOString() },
        context(job.fn, 'finish-1'),
      ),
    );
    expect(result).toMatchObject({ left: 0, failed: 0 });
  });

  it('runs the publication of scheduled posts (issue 39) as its schedule does: nothing fails', async () => {
    const job = functions.get(`${STACK}-publishScheduled`)!;
    const result = await withEnv(job.env, () =>
      (job.handler as unknown as (e: object, c: Context) => Promise<Record<string, number>>)(
        { time: new Date().toISOString() },
        context(job.fn, 'publish-1'),
      ),
    );
    expect(result).toMatchObject({ failed: 0 });
  });

  it("runs the mail job (issue 42) as its schedule does: the smoke set's confirmation sent, none failed", async () => {
    const job = functions.get(`${STACK}-sendMail`)!;
    // Through the local outbox, not SES (no AWS here): the job's reads and claims are what is checked.
    const outbox = mkdtempSync(join(tmpdir(), 'smoke-outbox-'));
    try {
      // The sender is the `mailFrom` setting (a verified SES identity); this app is synthesized without one.
      const env = {
        ...job.env,
        MAIL_TRANSPORT: 'outbox',
        CAL_OUTBOX_DIR: outbox,
        MAIL_FROM: 'Calendar <tickets@calendar.example.org>',
      };
      const result = await withEnv(env, () =>
        (job.handler as unknown as (e: object, c: Context) => Promise<Record<string, number>>)(
          { time: new Date().toISOString() },
          context(job.fn, 'mail-1'),
        ),
      );
      expect(result).toMatchObject({ failed: 0 });
      expect(result.sent).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(outbox, { recursive: true, force: true });
    }
  });

  it("runs the webhook engine (issue 28): the dispatcher on the table's stream, the deliverer on its queue", async () => {
    const admin = await signToken('administrator');
    const hook = await ok(201, 'POST', '/webhooks', {
      token: admin,
      // Venues only: the extend test before this one wrote occurrences dated by a clock 62 days ahead,
      // which the stream gives after this subscription's start.
      body: { url: 'https://93.184.215.14/engine', events: ['venue.*'] },
    });
    await ok(201, 'POST', '/venues', { token: admin, body: { venue: 'Engine smoke hall' } });
    let invocations = 0;
    const invoke = (name: string, event: object) => {
      const f = functions.get(`${STACK}-${name}`)!;
      const handler = f.handler as unknown as (e: object, c: Context) => Promise<unknown>;
      return withEnv(f.env, () => handler(event, context(f.fn, `engine-${++invocations}`)));
    };
    const stream = tableStream(dynamo, tableName);
    try {
      // The smoke set's changes (this subscription's deliveries), then the jobs they and earlier steps made.
      for (let read = 0; read < 2; read++)
        expect(
          await invoke('webhookDispatch', streamEvent((await stream.next()).filter(forDispatcher))),
        ).toEqual({
          batchItemFailures: [],
        });
    } finally {
      stream.close();
    }
    const jobs = sqs.sent
      .map((m) => JSON.parse(m.MessageBody) as { webhook: number })
      .filter((j) => j.webhook === hook.body.id);
    expect(jobs).toHaveLength(1);
    const records = jobs.map((j, i) => ({ messageId: `m${i}`, body: JSON.stringify(j) }));
    expect(await invoke('webhookDeliver', { Records: records })).toEqual({ batchItemFailures: [] });
    // One attempt made and recorded, whatever this machine's network made of it.
    const listed = await ok(200, 'GET', `/webhooks/${hook.body.id}/deliveries`, { token: admin });
    expect(listed.body.deliveries.map((d: { attempts: unknown[] }) => d.attempts.length)).toEqual([1]);
    await ok(200, 'DELETE', `/webhooks/${hook.body.id}`, { token: admin });
  }, 300_000);
});

/** A role's statements in its template, each resource as text (a Ref or GetAtt by name). */
function grantsOf(fn: AssemblyFunction): Array<{ actions: string[]; resources: string[] }> {
  const role = fn.template.resources[fn.roleId]!;
  const documents = [
    ...((role.Properties.Policies ?? []) as Array<{ PolicyDocument: any }>).map((p) => p.PolicyDocument),
    ...Object.values(fn.template.resources)
      // A role whose inline policy outgrows IAM's size limit gets the rest in managed policies (CDK's
      // overflow policies): the `$default` function's invoke grant names every operation's function.
      .filter(
        (r) =>
          (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') &&
          JSON.stringify(r.Properties.Roles).includes(`"${fn.roleId}"`),
      )
      .map((r) => r.Properties.PolicyDocument),
  ];
  const text = (v: any): string =>
    typeof v === 'string'
      ? v
      : v.Ref
        ? `<${v.Ref}>`
        : v['Fn::GetAtt']
          ? `<${v['Fn::GetAtt'].join('.')}>`
          : v['Fn::Join']
            ? v['Fn::Join'][1].map(text).join(v['Fn::Join'][0])
            : JSON.stringify(v);
  return documents
    .flatMap((d) => d.Statement)
    .filter((s: any) => s.Effect === 'Allow')
    .map((s: any) => ({ actions: [s.Action].flat(), resources: [s.Resource].flat().map(text) }));
}

/** Whether a grant's resource (as text) covers a call: the table's ARN, its indexes', or a function's. */
function covers(resource: string, call: AwsCall): boolean {
  if (call.action === 'lambda:InvokeFunction') return resource.endsWith(`:function:${call.table}`);
  const table = /DataTable[0-9A-F]*(\.Arn|Arn)>/.test(resource);
  return call.index ? table && resource.endsWith('/index/*') : table && !resource.includes('/index/');
}

const WRITES = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;

describe("each function's role, against what the function did in the smoke set", () => {
  const readOnly = (name: string) =>
    name === `${STACK}-noRoute` ||
    operations.find((op) => `${STACK}-${op.operationId}` === name)?.readOnly === true;

  it('grants every action on every resource a function used', () => {
    const missing: string[] = [];
    for (const [name, f] of functions) {
      const calls: AwsCall[] = [
        ...f.recorder.calls,
        ...f.invoked.map((t) => ({ action: 'lambda:InvokeFunction', table: t })),
      ];
      for (const call of calls) {
        if (call.action.startsWith('dynamodb:')) expect(call.table, name).toBe(tableName);
        const granted = grantsOf(f.fn).some(
          (g) => g.actions.includes(call.action) && g.resources.some((r) => covers(r, call)),
        );
        if (!granted)
          missing.push(`${name}: ${call.action} on ${call.table}${call.index ? `/index/${call.index}` : ''}`);
      }
    }
    expect(missing).toEqual([]);
    // The set reached DynamoDB from every function but the `$default` one's own code and the namespace
    // indexes and /doc (built from the contracts alone).
    const silent = [...functions].filter(
      ([name, f]) => f.recorder.calls.length === 0 && !name.endsWith('-noRoute'),
    );
    expect(silent.map(([name]) => name).filter((n) => !/getDocumentation|NamespaceIndex/.test(n))).toEqual(
      [],
    );
  });

  it('gives read-only functions no write action, and they used none', () => {
    for (const [name, f] of functions) {
      if (!readOnly(name)) continue;
      expect(
        grantsOf(f.fn)
          .flatMap((g) => g.actions)
          .filter((a) => WRITES.test(a)),
        name,
      ).toEqual([]);
      expect(
        f.recorder.calls.map((c) => c.action).filter((a) => WRITES.test(a)),
        name,
      ).toEqual([]);
    }
  });

  it('catches a role that lacks an action: the check itself', () => {
    const [name, f] = [...functions].find(([, x]) =>
      x.recorder.calls.some((c) => c.action === 'dynamodb:PutItem'),
    )!;
    const call = f.recorder.calls.find((c) => c.action === 'dynamodb:PutItem')!;
    const readGrants = grantsOf(functions.get(`${STACK}-getEvent`)!.fn);
    expect(
      readGrants.some((g) => g.actions.includes(call.action) && g.resources.some((r) => covers(r, call))),
      name,
    ).toBe(false);
  });
});
