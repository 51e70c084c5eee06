import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A second local stack for tests that need two calendars (an import from one into the other): the
 * same gateway and handlers in a child process, on its own table in the run's DynamoDB Local, with the
 * same local issuer (the test's tokens work on both). Handlers read the table name when their modules
 * load, which is why it takes another process.
 */
export async function startSecondStack(): Promise<{ base: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    env: { ...process.env, TABLE_NAME: `t-${randomUUID()}`, CAL_SECOND_STACK: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (code) =>
      fail(new Error(`the second stack ended (${code}) before it listened: ${out}`)),
    );
  });
  return {
    base: `http://127.0.0.1:${port}/cal/events/v1`,
    close: () =>
      new Promise<void>((ok) => {
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

if (process.env.CAL_SECOND_STACK === '1' && process.argv[1] === import.meta.filename) {
  const { startLocalStack } = await import('../../local/stack');
  const stack = await startLocalStack({
    dynamo: { endpoint: process.env.DYNAMODB_ENDPOINT! },
    table: { name: process.env.TABLE_NAME! },
    gateway: { port: 0 },
  });
  process.stdout.write(`listening ${(stack.server!.address() as AddressInfo).port}\n`);
  process.once('SIGTERM', () => void stack.stop().then(() => process.exit(0)));
}
