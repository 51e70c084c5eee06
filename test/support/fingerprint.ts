import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue, ScanCommand } from '@aws-sdk/lib-dynamodb';

/**
 * A fingerprint of a whole DynamoDB table: every item of every page of a strongly consistent Scan,
 * in a canonical JSON form (keys sorted, numbers as their exact decimal text, sets sorted), ordered by
 * `pk|sk` and hashed. Two fingerprints are equal exactly when the table holds the same items.
 */
export interface TableFingerprint {
  /** SHA-256 of the sorted items' canonical JSON. */
  hash: string;
  count: number;
  /** Canonical JSON of each item by `pk|sk`, to say what changed when two hashes differ. */
  items: Map<string, string>;
}

let client: DynamoDBDocumentClient | undefined;

/** The test file's table (process.env.DYNAMODB_ENDPOINT / TABLE_NAME, set by test/support/env.ts). */
function documentClient(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      region: process.env.AWS_REGION ?? 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { unmarshallOptions: { wrapNumbers: true } },
  );
  return client;
}

/** JSON with sorted object keys; numbers, sets and binaries spelt so that nothing is lost or reordered. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (value instanceof NumberValue) return { $N: value.toString() };
  if (typeof value === 'number') return { $N: String(value) };
  if (typeof value === 'bigint') return { $N: value.toString() };
  if (value instanceof Uint8Array) return { $B: Buffer.from(value).toString('base64') };
  if (value instanceof Set)
    return { $SET: [...value].map((v) => canonicalJson(v)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

const keyOf = (item: Record<string, unknown>) => `${String(item.pk)}|${String(item.sk)}`;

/**
 * Scans every page of the table and fingerprints what it holds, leaving out the items whose `pk|sk`
 * matches `exclude`.
 */
export async function fingerprintTable(
  tableName = process.env.TABLE_NAME!,
  exclude?: RegExp,
): Promise<TableFingerprint> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) {
      const key = keyOf(item);
      if (!exclude?.test(key)) items.set(key, canonicalJson(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const keys = [...items.keys()].sort();
  const hash = createHash('sha256');
  for (const key of keys) hash.update(`${key}\n${items.get(key)!}\n`);
  return {
    hash: hash.digest('hex'),
    count: keys.length,
    items: new Map(keys.map((k) => [k, items.get(k)!])),
  };
}

/** What differs between two fingerprints, one line per item added, removed or changed (texts shortened). */
export function describeDifference(before: TableFingerprint, after: TableFingerprint, max = 20): string[] {
  const cut = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const lines: string[] = [];
  for (const [key, json] of after.items) {
    const old = before.items.get(key);
    if (old === undefined) lines.push(`+ ${key} ${cut(json)}`);
    else if (old !== json) lines.push(`~ ${key}\n    before ${cut(old)}\n    after  ${cut(json)}`);
  }
  for (const [key, json] of before.items) if (!after.items.has(key)) lines.push(`- ${key} ${cut(json)}`);
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}
