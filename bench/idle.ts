import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../local/dynamo';
import { seedCalendar } from '../scripts/seed';
import { signLocalToken } from '../local/token';

/**
 * What the local stack costs at rest (issue 38): `npm start` in memory, as a user starts it, seeded
 * with a few events, then left alone; the CPU its processes (node and DynamoDB Local's Java) use over
 * the idle window, from /proc. Its webhook dispatcher once checkpointed into the table it read, and
 * the stack burned a core for ever (0.93 of a core measured then).
 */
export interface IdleResults {
  idle_seconds: number;
  events: number;
  /** CPU seconds over the window: the node processes (npm, tsx, the stack) and DynamoDB Local. */
  node_cpu_s: number;
  dynamo_cpu_s: number;
  /** Cores used on average (CPU seconds per second), and CPU seconds per minute. */
  cores: number;
  cpu_s_per_minute: number;
  run: { commit: string; date: string; node: string; cpus: number; loadavg: number[] };
}

export const IDLE_MARKERS = { begin: '<!-- bench-idle-report:begin', end: '<!-- bench-idle-report:end -->' };

const ROOT = resolve(import.meta.dirname, '..');
const READY = /Event calendar API ready at/;
const SETTLE_MS = 5_000;

/** The processes of one process group, with their CPU ticks so far and whether each is Java. */
function groupTicks(pgid: number): Array<{ pid: number; java: boolean; ticks: number }> {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ... utime(14) stime(15): read after the last ')', comm may hold spaces.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) !== pgid) continue;
      found.push({ pid: Number(name), java: stat.includes('(java)'), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone
    }
  }
  return found;
}

export async function measureIdleStack(o: {
  seconds: number;
  events: number;
  commit: string;
  log: (line: string) => void;
}): Promise<IdleResults> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cal-bench-idle-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CAL_IN_MEMORY: '1',
    PORT: String(port),
    CAL_DATA_DIR: dataDir,
  };
  // The bench's own stack's settings are not the started stack's.
  for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'AUTH_LOCAL_SECRET', 'AWS_REGION']) delete env[name];
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const pgid = child.pid!;
  try {
    const deadline = Date.now() + 180_000;
    while (!READY.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`npm start did not start:\n${output}`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const base = `http://127.0.0.1:${port}/cal/events/v1`;
    const secret = readFileSync(join(dataDir, 'local-jwt-secret'), 'utf8').trim();
    const token = await signLocalToken(secret, 'administrator', 'bench-idle', '2h');
    o.log(`Idle stack: npm start (in memory) seeded with ${o.events} events...`);
    await seedCalendar({ base, token, events: o.events, seed: 7 });
    await new Promise((ok) => setTimeout(ok, SETTLE_MS));
    const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const before = new Map(groupTicks(pgid).map((p) => [p.pid, p.ticks]));
    const t0 = performance.now();
    await new Promise((ok) => setTimeout(ok, o.seconds * 1000));
    const after = groupTicks(pgid);
    const wall = (performance.now() - t0) / 1000;
    const used = (java: boolean) =>
      after
        .filter((p) => p.java === java && before.has(p.pid))
        .reduce((s, p) => s + (p.ticks - before.get(p.pid)!) / hz, 0);
    const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
    const node = used(false);
    const dynamo = used(true);
    const cores = (node + dynamo) / wall;
    return {
      idle_seconds: round(wall, 1),
      events: o.events,
      node_cpu_s: round(node, 2),
      dynamo_cpu_s: round(dynamo, 2),
      cores: round(cores),
      cpu_s_per_minute: round(cores * 60, 1),
      run: {
        commit: o.commit,
        date: new Date().toISOString().slice(0, 10),
        node: process.versions.node,
        cpus: cpus().length,
        loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
      },
    };
  } finally {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // gone
    }
    await new Promise((ok) => setTimeout(ok, 3_000));
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // stopped
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const idleLine = (r: IdleResults) =>
  `Idle stack (npm start in memory, ${r.events} events seeded, then ${r.idle_seconds} s without a request): ` +
  `${r.cores} of a core (${r.cpu_s_per_minute} CPU s a minute): node ${r.node_cpu_s} s, DynamoDB Local ${r.dynamo_cpu_s} s.`;

/** The Markdown of an idle run, between IDLE_MARKERS (docs/benchmarks.md). */
export function renderIdleReport(r: IdleResults, source: string): string {
  return [
    `${IDLE_MARKERS.begin} source=${source}: written by \`npm run bench -- --idle --report\`; edits between these markers are overwritten -->`,
    '### The local stack at rest',
    '',
    `Commit ${r.run.commit}, ${r.run.date}, Node ${r.run.node}, ${r.run.cpus} CPUs, load average ${r.run.loadavg.join(', ')}. ` +
      `\`CAL_IN_MEMORY=1 npm start\`, ${r.events} events seeded through the API, ${SETTLE_MS / 1000} s to settle, then ` +
      `${r.idle_seconds} s without a request; CPU of the stack's processes from /proc.`,
    '',
    '| node processes (CPU s) | DynamoDB Local (CPU s) | cores used | CPU s a minute |',
    '| ---: | ---: | ---: | ---: |',
    `| ${r.node_cpu_s} | ${r.dynamo_cpu_s} | ${r.cores} | ${r.cpu_s_per_minute} |`,
    IDLE_MARKERS.end,
  ].join('\n');
}
