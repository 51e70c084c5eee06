import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One permission a request needed: the IAM action and what it acts on (a table, or one of its indexes). */
export interface AwsCall {
  action: string;
  table: string;
  index?: string;
}

type Item = Record<string, { TableName?: string } | undefined>;

/**
 * The IAM actions a DynamoDB request needs, from its X-Amz-Target and body. A transaction is
 * authorized item by item (PutItem, UpdateItem, DeleteItem, ConditionCheckItem; GetItem for reads):
 * there is no IAM action of its own for TransactWriteItems or TransactGetItems.
 */
export function callsOf(target: string, body: Record<string, any>): AwsCall[] {
  const operation = target.split('.').pop()!;
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    const actions: Record<string, string> = {
      Put: 'PutItem',
      Update: 'UpdateItem',
      Delete: 'DeleteItem',
      ConditionCheck: 'ConditionCheckItem',
      Get: 'GetItem',
    };
    return (body.TransactItems as Item[]).flatMap((item) =>
      Object.entries(item).map(([kind, x]) => ({
        action: `dynamodb:${actions[kind] ?? kind}`,
        table: String(x?.TableName),
      })),
    );
  }
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem')
    return Object.keys(body.RequestItems ?? {}).map((table) => ({ action: `dynamodb:${operation}`, table }));
  return [
    {
      action: `dynamodb:${operation}`,
      table: String(body.TableName),
      ...(body.IndexName ? { index: String(body.IndexName) } : {}),
    },
  ];
}

export interface Recorder {
  /** The endpoint to give one function (DYNAMODB_ENDPOINT): its requests go on to DynamoDB as they are. */
  endpoint: string;
  calls: AwsCall[];
  close: () => Promise<void>;
}

/**
 * A pass-through in front of DynamoDB Local that records what each request needs, as the SDK inside a
 * bundle sends it (the bundles carry their own SDK, which no middleware added from outside reaches).
 */
export async function startRecorder(dynamoEndpoint: string): Promise<Recorder> {
  const target = new URL(dynamoEndpoint);
  const calls: AwsCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const amzTarget = String(req.headers['x-amz-target'] ?? '');
      if (amzTarget) calls.push(...callsOf(amzTarget, JSON.parse(body.toString('utf8') || '{}')));
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      forward.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
