import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver for the tests: a plain Node HTTP server that keeps every request it gets, by
 * path, and answers each path as the test scripts it (a status, a hang, a closed connection, ...).
 */

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  json: {
    type: string;
    timestamp: string;
    data: {
      resource: string;
      id: number;
      action: string;
      modified_utc: string;
      rest_url: string;
      record: Record<string, any> | null;
    };
  };
  /**
   * What verifying under each of its path's secrets said when it arrived ('ok' or the error): a
   * receiver checks the timestamp against its clock then, not minutes later when a test looks.
   */
  checked: Map<string, string>;
}

/** What to do with the n-th request (0-based) to a path: a status, or `hang` / `close`. */
export type Answer = number | 'hang' | 'close' | ((res: ServerResponse) => void);

export interface Receiver {
  base: string;
  port: number;
  received: Received[];
  /** Requests to one path, in arrival order. */
  at: (path: string) => Received[];
  /** Requests a path got, those that hung or were cut included. */
  count: (path: string) => number;
  /** Scripts the answers of a path: `[500, 200]` answers 500 first, then 200 for ever after. */
  script: (path: string, answers: Answer[]) => void;
  /** Secrets a path's deliveries are verified under as they arrive (added to those it has). */
  secrets: (path: string, ...secrets: string[]) => void;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const counts = new Map<string, number>();
  const keys = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString();
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const answers = scripts.get(path) ?? [200];
      const answer = answers[Math.min(n, answers.length - 1)]!;
      if (answer === 'hang') return;
      if (answer === 'close') return req.socket.destroy();
      const r: Received = { path, headers: req.headers, body, json: JSON.parse(body), checked: new Map() };
      for (const secret of keys.get(path) ?? []) r.checked.set(secret, check(secret, r));
      received.push(r);
      if (typeof answer === 'function') return answer(res);
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(String(answer));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    received,
    at: (path) => received.filter((r) => r.path === path),
    count: (path) => counts.get(path) ?? 0,
    script: (path, answers) => scripts.set(path, answers),
    secrets: (path, ...secrets) => keys.set(path, [...(keys.get(path) ?? []), ...secrets]),
    close: async () => {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

const signed = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

function check(secret: string, r: Received): string {
  try {
    signed(secret, r);
    return 'ok';
  } catch (e) {
    return String(e);
  }
}

/**
 * Verifies a delivery as a receiver would, with the standardwebhooks library (signature, and timestamp
 * against the clock when it arrived if its path had the secret then); throws if it fails.
 */
export function verify(secret: string, r: Received): void {
  const then = r.checked.get(secret);
  if (then === undefined) signed(secret, r);
  else if (then !== 'ok') throw new Error(then);
}

/** Waits until `check` holds (polling), or fails saying what it waited for. No tight budget: the machine is shared. */
type Falsy = false | undefined | null | 0 | '';
export async function eventually<T>(
  what: string,
  check: () => T | Falsy | Promise<T | Falsy>,
  timeoutMs = 180_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}
