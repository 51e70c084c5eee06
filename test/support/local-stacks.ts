import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../../local/dynamo';
import { signLocalToken } from '../../local/token';
import type { Role } from '../../shared/domain/roles';
import { descendants, isAlive, killLeftovers, type Proc, waitUntil } from './processes';

const ROOT = resolve(import.meta.dirname, '../..');
const READY = /Event calendar API ready at/;

/** One `npm start` of a test, with a token of its own issuer. */
export interface LocalStack {
  child: ChildProcess;
  port: number;
  base: string;
  /** Its processes when it was ready: node's and DynamoDB Local's Java. */
  tree: Proc[];
  token: string;
  /** What it has printed so far. */
  output(): string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }>;
  /** The whole stack at once, as a power cut would: node and DynamoDB Local's Java alike. */
  killOutright(): Promise<void>;
}

/**
 * `npm start` on one data directory (persisted, not in memory), each run in a process group of its own,
 * for the tests that kill the stack and start it again; `cleanup` kills whatever is left.
 */
export function localStacks(dataDir: string) {
  const groups = new Set<number>();
  const pids = new Set<number>();

  async function start(opts: { role: Role; subject: string; env?: NodeJS.ProcessEnv }): Promise<LocalStack> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), CAL_DATA_DIR: dataDir, ...opts.env };
    for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'CAL_IN_MEMORY', 'AUTH_LOCAL_SECRET'])
      delete env[name];
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    groups.add(child.pid!);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await waitUntil('the ready line of npm start', () => READY.test(output), 180_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${output}`);
    });
    const tree = descendants(child.pid!);
    for (const p of tree) pids.add(p.pid);
    const secret = readFileSync(join(dataDir, 'local-jwt-secret'), 'utf8').trim();
    const token = await signLocalToken(secret, opts.role, opts.subject);
    const base = `http://127.0.0.1:${port}/cal/events/v1`;
    return {
      child,
      port,
      base,
      tree,
      token,
      output: () => output,
      async call(method, path, body) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      },
      async killOutright() {
        process.kill(-child.pid!, 'SIGKILL');
        for (const p of tree)
          try {
            process.kill(p.pid, 'SIGKILL');
          } catch {
            /* gone with the group */
          }
        await waitUntil('the killed stack to be gone', () => tree.every((p) => !isAlive(p.pid)), 15_000);
      },
    };
  }

  return { start, cleanup: () => killLeftovers(groups, pids) };
}
