import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { answers, descendants, isAlive, killLeftovers, type Proc, waitUntil } from '../support/processes';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/dynamo';

/**
 * `npm start` as a user runs it: whatever ends the process that was started (SIGTERM, SIGINT, being
 * killed outright) ends the gateway, the node process behind tsx and DynamoDB Local's Java process with
 * it. Each case starts its own stack in its own process group, so the cleanup can kill every leftover.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const READY = /Event calendar API ready at/;
const STOP_WITHIN_MS = 10_000;

/** Leftovers to kill in afterAll whatever happens: process groups and single processes. */
const groups = new Set<number>();
const pids = new Set<number>();
const dataDirs: string[] = [];

afterAll(() => {
  killLeftovers(groups, pids);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  port: number;
  java: Proc;
  tree: Proc[];
  output: () => string;
}

/** Starts the stack with `command` in its own process group and waits for its ready line. */
async function start(command: string, args: string[]): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cal-lifecycle-'));
  dataDirs.push(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CAL_IN_MEMORY: '1',
    PORT: String(port),
    CAL_DATA_DIR: dataDir,
  };
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_NAME;
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.add(child.pid!);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await waitUntil(`the ready line of ${command} ${args.join(' ')}`, () => READY.test(output), 90_000).catch(
    (e: Error) => {
      throw new Error(`${e.message}\n${output}`);
    },
  );
  const tree = descendants(child.pid!);
  for (const p of tree) pids.add(p.pid);
  const java = tree.find((p) => /DynamoDBLocal\.jar/.test(p.args));
  if (!java) throw new Error(`no DynamoDB Local below ${child.pid}: ${JSON.stringify(tree)}`);
  expect(await answers(port)).toBe(true);
  return { child, port, java, tree, output: () => output };
}

/** Everything the stack started is gone and its port no longer answers, within the time allowed. */
async function expectAllStopped(s: Started): Promise<void> {
  await waitUntil('the gateway port to close', async () => !(await answers(s.port)), STOP_WITHIN_MS);
  await waitUntil(`DynamoDB Local (pid ${s.java.pid}) to end`, () => !isAlive(s.java.pid), STOP_WITHIN_MS);
  await waitUntil(
    'every process of the stack to end',
    () => s.tree.every((p) => !isAlive(p.pid)),
    STOP_WITHIN_MS,
  ).catch((e: Error) => {
    const left = s.tree.filter((p) => isAlive(p.pid)).map((p) => `${p.pid} ${p.args}`);
    throw new Error(`${e.message}; still running:\n${left.join('\n')}`);
  });
}

describe('stopping the local stack', () => {
  it.each([
    ['SIGTERM', 'npm start', 'npm', ['start']],
    ['SIGTERM', 'npx tsx local/start.ts', 'npx', ['tsx', 'local/start.ts']],
  ] as const)(
    '%s sent to the %s process alone stops the gateway and DynamoDB Local',
    async (signal, _name, command, args) => {
      const s = await start(command, [...args]);

      process.kill(s.child.pid!, signal);

      await expectAllStopped(s);
    },
    180_000,
  );

  it('Ctrl-C (SIGINT to the whole foreground process group) stops the gateway and DynamoDB Local', async () => {
    const s = await start('npm', ['start']);

    process.kill(-s.child.pid!, 'SIGINT');

    await expectAllStopped(s);
  }, 180_000);

  it('the started process being killed outright (SIGKILL) stops everything behind it', async () => {
    const s = await start('npm', ['start']);

    process.kill(s.child.pid!, 'SIGKILL');

    await expectAllStopped(s);
  }, 180_000);

  it('the node process behind tsx being killed outright still ends DynamoDB Local', async () => {
    const s = await start('npm', ['start']);
    const server = s.tree.find((p) => p.pid === s.java.ppid)!;

    process.kill(server.pid, 'SIGKILL');

    await expectAllStopped(s);
  }, 180_000);
});
