import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FUNCTION_ENTRY, functionBuild, loadedAtStart } from '../../infra/bundle/build-options';
import { operations } from '../../shared/contracts';
import { invoke } from '../support/invoke';
import { useStack } from '../support/use-stack';

/**
 * The functions as Lambda runs them: bundled the way the stack bundles them (split into chunks), then
 * loaded and called against the embedded DynamoDB. What only `await import()` reaches (the sanitizer,
 * Powertools idempotency, Logger and Metrics) is not loaded at cold start, yet a request that needs it
 * gets it.
 */
const {
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'cal-fn-bundles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Built {
  /** Source files in the entry's chunk and the chunks it imports statically: what a cold start loads. */
  atStart: string[];
  /** Source files in every output. */
  all: string[];
  /** The output files' names. */
  chunks: string[];
  handler: unknown;
}

async function bundle(fn: string): Promise<Built> {
  const outdir = join(dir, fn.replace('/', '-'));
  const { metafile } = await build({
    ...functionBuild(
      join(ROOT, `functions/${fn}.ts`),
      outdir,
      operations.find((op) => op.handler === `functions/${fn}`),
    ),
    metafile: true,
  });
  const outputs = (metafile as Metafile).outputs;
  const sources = (outs: string[]) => outs.flatMap((o) => Object.keys(outputs[o]!.inputs));
  const mod = (await import(pathToFileURL(join(outdir, FUNCTION_ENTRY)).href)) as { handler: unknown };
  return {
    atStart: sources(loadedAtStart(metafile as Metafile)),
    all: sources(Object.keys(outputs)),
    chunks: Object.keys(outputs),
    handler: mod.handler,
  };
}

const has = (files: string[], pkg: string) => files.some((f) => f.includes(`node_modules/${pkg}/`));

let create: Built;
let get: Built;
beforeAll(async () => {
  [create, get] = [await bundle('events/create-event'), await bundle('events/get-event')];
});

/** A request made with metrics on, and the embedded-metric-format lines it wrote to stdout. */
async function counted<T>(
  request: () => Promise<T>,
): Promise<{ res: T; emf: Array<Record<string, unknown>> }> {
  vi.stubEnv('CAL_METRICS', '1');
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const res = await request();
    const emf = lines.flatMap((l) => l.split('\n')).filter((l) => l.includes('"_aws"'));
    return { res, emf: emf.map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

describe('function bundles split into chunks', () => {
  it('leave the sanitizer and Powertools idempotency out of what a cold start loads', () => {
    expect(has(create.all, 'sanitize-html')).toBe(true);
    expect(has(create.all, '@aws-lambda-powertools/idempotency')).toBe(true);
    expect(has(create.atStart, 'sanitize-html')).toBe(false);
    expect(has(create.atStart, '@aws-lambda-powertools/idempotency')).toBe(false);
    expect(has(create.atStart, '@aws-sdk/client-dynamodb')).toBe(true);
  });

  it('leave Powertools Logger out of what a cold start loads', () => {
    for (const fn of [create, get]) {
      expect(has(fn.all, '@aws-lambda-powertools/logger')).toBe(true);
      expect(has(fn.atStart, '@aws-lambda-powertools/logger')).toBe(false);
    }
  });

  it('leave the inline venue and organizer validators out of what a cold start loads', () => {
    const inline = (files: string[]) => files.some((f) => f.endsWith('schemas/compiled/inlineRecords.ts'));
    expect(inline(create.all)).toBe(true);
    expect(inline(create.atStart)).toBe(false);
  });

  it('leave the contract and the URL and e-mail checks out of what a cold start loads', () => {
    const ending = (files: string[], end: string) => files.some((f) => f.endsWith(end));
    for (const fn of [create, get])
      for (const contract of ['shared/contracts/events.ts', 'shared/schemas/event.ts'])
        expect(ending(fn.atStart, contract), contract).toBe(false);
    expect(has(create.all, 'ajv-formats')).toBe(true);
    expect(has(create.atStart, 'ajv-formats')).toBe(false);
  });

  it('check the web fields of a create, loading the URL and e-mail checks on demand', async () => {
    const event = { title: 'Web night', start_date: '2031-06-03 20:00:00', end_date: '2031-06-03 22:00:00' };
    const made = await invoke(create.handler, 'POST', '/events', {
      token: editor,
      body: {
        ...event,
        website: 'https://example.org/night',
        venue: { venue: 'Web Hall', website: 'https://example.org/hall' },
      },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.website).toBe('https://example.org/night');
    expect(made.body.venue).toMatchObject({ venue: 'Web Hall', website: 'https://example.org/hall' });
    const bad = await invoke(create.handler, 'POST', '/events', {
      token: editor,
      body: { ...event, organizer: { organizer: 'Web Org', email: 'not an address' } },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.data.params).toEqual({ organizer: 'organizer.email must be an e-mail address.' });
  });

  it('leave JWT verification (jose) out of a read cold start, and bundle it into the start of a write', () => {
    expect(has(get.all, 'jose')).toBe(true);
    expect(has(get.atStart, 'jose')).toBe(false);
    expect(get.chunks.some((c) => c.includes('auth-'))).toBe(true);
    // Every write carries a token: the verifier loads with the function, not as a chunk of its own.
    expect(has(create.atStart, 'jose')).toBe(true);
    expect(create.chunks.some((c) => c.includes('auth-'))).toBe(false);
  });

  it('count a 4xx', async () => {
    const { res, emf } = await counted(() =>
      invoke(get.handler, 'GET', '/events/999999999', { pathParameters: { id: '999999999' } }),
    );
    expect(res.status, res.text).toBe(404);
    expect(emf).toMatchObject([{ ClientErrors: 1, code: res.body.code, service: 'cal-events' }]);
  });

  it('create, sanitize, replay a keyed create and read back, loading chunks on demand', async () => {
    const body = {
      title: 'Bundled <b>night</b>',
      description: '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script>',
      start_date: '2031-06-01 20:00:00',
      end_date: '2031-06-01 22:00:00',
    };
    const headers = { 'idempotency-key': 'bundle-test-1' };
    const context = { awsRequestId: 'bundle-req', getRemainingTimeInMillis: () => 10_000 };
    const first = await invoke(create.handler, 'POST', '/events', { token: editor, body, headers, context });
    expect(first.status, first.text).toBe(201);
    expect(first.body.title).toBe('Bundled night');
    expect(first.body.description).toBe('<p>Hi <b>there</b></p>');
    const again = await invoke(create.handler, 'POST', '/events', { token: editor, body, headers, context });
    expect(again.status, again.text).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const read = await invoke(get.handler, 'GET', `/events/${first.body.id}`, {
      pathParameters: { id: String(first.body.id) },
    });
    expect(read.status, read.text).toBe(200);
    expect(read.body.description).toBe('<p>Hi <b>there</b></p>');
  });

  it('create an event with an inline venue, loading its validator on demand, and 400 a bad one', async () => {
    const event = {
      title: 'Bundled venue night',
      start_date: '2031-06-02 20:00:00',
      end_date: '2031-06-02 22:00:00',
    };
    const made = await invoke(create.handler, 'POST', '/events', {
      token: editor,
      body: { ...event, venue: { venue: 'Bundled Hall', city: 'Lyon' } },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.venue).toMatchObject({ venue: 'Bundled Hall', city: 'Lyon' });
    const bad = await invoke(create.handler, 'POST', '/events', {
      token: editor,
      body: { ...event, venue: { venue: 'Bundled Hall', show_map: 'maybe' } },
    });
    expect(bad.status, bad.text).toBe(400);
  });

  it('count an event created, reading ISO dates with luxon on demand', async () => {
    const { res, emf } = await counted(() =>
      invoke(create.handler, 'POST', '/events', {
        token: editor,
        body: {
          title: 'Bundled ISO night',
          start_date: '2031-06-03T20:00:00+02:00',
          end_date: '2031-06-03T22:00:00+02:00',
          timezone: 'Europe/Paris',
        },
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      start_date: '2031-06-03 20:00:00',
      utc_start_date: '2031-06-03 18:00:00',
    });
    expect(emf).toMatchObject([{ EventsCreated: 1, service: 'cal-events' }]);
  });
});
