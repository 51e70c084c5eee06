import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';

/** Process-table helpers for the tests that start the local stack as `npm start` does. */

export interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

export function processTable(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
}

/** Every process below `root` (not `root` itself). */
export function descendants(root: number): Proc[] {
  const table = processTable();
  const found: Proc[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const p of table.filter((t) => t.ppid === parent)) {
      found.push(p);
      queue.push(p.pid);
    }
  }
  return found;
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie is dead already: it only waits for its parent to read its exit status.
  try {
    return !/^\s*Z/.test(execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }));
  } catch {
    return false;
  }
};

/** Whether something accepts TCP connections on the port. */
export const answers = (port: number) =>
  new Promise<boolean>((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
    socket.once('timeout', () => {
      socket.destroy();
      ok(false);
    });
  });

export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  ms: number,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Kills leftovers whatever happened: whole process groups, then single processes. */
export function killLeftovers(groups: Iterable<number>, pids: Iterable<number>): void {
  for (const pgid of groups)
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
}
