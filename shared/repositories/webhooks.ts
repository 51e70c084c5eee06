import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Visibility } from '../domain/webhooks';
import { patterns } from '../db/access-patterns';
import { ddb, tableName } from '../db/client';
import { unlessConditionFails } from '../db/conditional';
import { keys } from '../db/keys';
import { collect, queryIndex } from '../db/query';
import { nextId } from '../db/ids';

/** A new webhook subscription's ID. */
export const nextWebhookId = () => nextId('webhook');

/**
 * Webhook subscriptions: one item each in one partition. The signing secrets live only here; the
 * services never put them in an answer after creation, and nothing logs these items.
 */

export interface SigningSecret {
  secret: string;
  /** A rotated-out secret signs beside the new one until then (epoch ms); the current one has none. */
  expires_ms?: number;
}

export interface WebhookRecord {
  id: number;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  visibility: Visibility;
  secrets: SigningSecret[];
  created_utc: string;
  modified_utc: string;
  disabled_reason?: string;
  last_success_utc?: string;
  /** The first failed attempt since the last success (epoch ms): five days of it disable the subscription. */
  failing_since_ms?: number;
}

const strip = ({ pk: _pk, sk: _sk, type: _type, ...rest }: Record<string, unknown>) =>
  rest as unknown as WebhookRecord;

export async function putWebhook(w: WebhookRecord): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.webhook(w.id), type: 'webhook', ...w },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getWebhook(id: number): Promise<WebhookRecord | undefined> {
  const out = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(id), ConsistentRead: true }),
  );
  return out.Item && strip(out.Item);
}

/** Every subscription, in ID order (a handful: one Query, paged only past 1 MB). */
export async function listWebhooks(): Promise<WebhookRecord[]> {
  return (await collect(queryIndex(patterns.allWebhooks.query()))).map(strip);
}

/**
 * Sets `set` and removes `remove` on an existing subscription; undefined when there is none. `when`
 * adds a condition (with its values): a false one leaves the item as it is and answers undefined too.
 */
export async function updateWebhook(
  id: number,
  set: Partial<WebhookRecord>,
  remove: Array<keyof WebhookRecord> = [],
  when?: { condition: string; values: Record<string, unknown> },
): Promise<WebhookRecord | undefined> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...when?.values };
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].join(' ');
  const out = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(id),
        UpdateExpression: expression,
        ConditionExpression: `attribute_exists(pk)${when ? ` AND (${when.condition})` : ''}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return out && strip(out.Attributes!);
}

export async function deleteWebhook(id: number): Promise<WebhookRecord | undefined> {
  const out = await ddb.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.webhook(id), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes && strip(out.Attributes);
}
