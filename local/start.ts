import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, localSecret } from './secret';
import { type LocalStack, startLocalStack } from './stack';

/**
 * `npm start`: the local stack (local/stack.ts) with every part: the embedded DynamoDB, the table from
 * the shared definition, the same handlers behind a local gateway, the calendar page and the background
 * jobs. `CAL_IN_MEMORY=1` (or `--in-memory`) keeps no data on disk.
 *
 * Stopping: SIGINT, SIGTERM or SIGHUP close the gateway and stop DynamoDB Local. `npm start` runs this
 * file as npm → sh → tsx → node, and a SIGTERM sent to npm alone ends npm and its shell without reaching
 * tsx; so the stack also stops when a process of the chain that started it ends (see launchChain).
 */
// Lambda runs Node 22; locally the SDK's notice about older Node versions is only noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const port = Number(process.env.PORT ?? 3000);
const inMemory = process.env.CAL_IN_MEMORY === '1' || process.argv.includes('--in-memory');
const tableName = process.env.TABLE_NAME ?? 'cal-events';
const WATCH_INTERVAL_MS = 500;

/** The parent of each of `pids` that still runs (from /proc where there is one, else from one `ps`). */
function parentsOf(pids: number[]): Map<number, number> {
  const parents = new Map<number, number>();
  if (existsSync('/proc/self/stat')) {
    for (const pid of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
        parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // gone
      }
    }
    return parents;
  }
  try {
    const out = execFileSync('ps', ['-o', 'pid=,ppid=', '-p', pids.join(',')], { encoding: 'utf8' });
    for (const line of out.trim().split('\n')) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid && ppid !== undefined) parents.set(pid, ppid);
    }
  } catch {
    // ps exits non-zero when none of them runs
  }
  return parents;
}

function groupOf(pid: number): number | undefined {
  try {
    if (existsSync('/proc/self/stat')) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    }
    return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

/**
 * The processes that launched this one, as links [child, parent] from this process up to the leader of
 * its process group (what a shell started: `npm start`, `npx tsx local/start.ts`, `tsx local/start.ts`).
 * A link breaks when the parent ends (its child is re-parented); the leader's own parent is not watched,
 * so `nohup npm start &` survives the shell that started it.
 */
function launchChain(): Array<[child: number, parent: number]> {
  const group = groupOf(process.pid);
  const links: Array<[number, number]> = [];
  let pid = process.pid;
  for (let depth = 0; group !== undefined && depth < 32; depth++) {
    const parent = parentsOf([pid]).get(pid);
    if (!parent || groupOf(parent) !== group) break;
    links.push([pid, parent]);
    if (parent === group) break;
    pid = parent;
  }
  return links;
}

let stack: LocalStack | undefined;
let stopping = false;

const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  clearInterval(watch);
  // Stopped before the stack was up: exiting kills DynamoDB Local (local/dynamo.ts).
  await stack?.stop();
  process.exit(code);
};

const chain = launchChain();
const watch = setInterval(() => {
  const parents = parentsOf(chain.map(([child]) => child));
  if (chain.some(([child, parent]) => parents.get(child) !== parent)) void stop();
}, WATCH_INTERVAL_MS);
watch.unref();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());

try {
  Object.assign(process.env, {
    AUTH_LOCAL_SECRET: localSecret(),
    SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}`,
    // Webhooks may reach receivers on this machine (http://127.0.0.1, localhost): the local stack only.
    CAL_OUTBOUND_LOCAL: '1',
  });
  stack = await startLocalStack({
    dynamo: { dataDir: inMemory ? undefined : join(DATA_DIR, 'dynamodb') },
    table: { name: tableName },
    gateway: { port, host: process.env.HOST ?? '127.0.0.1' },
    // The calendar page (web/dist), built when a source changed since the last build; the API runs without it.
    web: 'optional',
    // The webhook engine and the scheduled jobs (local/background.ts).
    background: true,
  });
  console.log(
    `Event calendar API ready at http://localhost:${port}/cal/events/v1 (${inMemory ? 'in memory' : `data in ${DATA_DIR}/`})`,
  );
  if (stack.web)
    console.log(`Calendar at http://localhost:${port}/ and API explorer at http://localhost:${port}/docs`);
  console.log('Get a token with: npm run token -- --role editor');
} catch (e) {
  console.error(`Could not start: ${(e as Error).message}`);
  await stop(1);
}
