import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { idempotencyKeyReused } from '../domain/errors';
import { ddb, tableName } from '../db/client';
import { keys } from '../db/keys';
import { TABLE } from '../db/table';
import type { PlannedWrite } from '../db/transact';

/** How long a create's Idempotency-Key holds: the same 24 hours as the answers Powertools keeps. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** A create sent with an Idempotency-Key: the hash of (operation, caller, key) and of the body. */
export interface CreationKey {
  request: string;
  payload: string;
}

/** The create was done before, by an earlier request with the same key: record `id` is its result. */
export class AlreadyCreated extends Error {
  constructor(readonly id: number) {
    super(`already created as ${id}`);
  }
}

/**
 * The guard that makes a create with an Idempotency-Key happen at most once, written in the create's
 * own transaction. Powertools answers a repeated key from the stored answer; this covers what it cannot
 * know: a create whose first attempt ended without an answer (a timeout) while its write landed, or
 * lands later. Whichever transaction comes second fails on the guard and reads the first one's record.
 */
export function creationGuard(key: CreationKey | undefined, id: number): PlannedWrite[] {
  if (!key) return [];
  const at = keys.creationGuard(key.request);
  const now = Math.floor(Date.now() / 1000);
  return [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: {
            ...at,
            id,
            payload: key.payload,
            [TABLE.ttlAttribute]: now + IDEMPOTENCY_TTL_SECONDS,
          },
          // TTL deletes some time after expiry: an expired guard no longer holds.
          ConditionExpression: 'attribute_not_exists(pk) OR #expiry < :now',
          ExpressionAttributeNames: { '#expiry': TABLE.ttlAttribute },
          ExpressionAttributeValues: { ':now': now },
        },
      },
      onConflict: async () => {
        const out = await ddb.send(new GetCommand({ TableName: tableName(), Key: at, ConsistentRead: true }));
        if (out.Item?.payload !== key.payload) return idempotencyKeyReused();
        return new AlreadyCreated(Number(out.Item.id));
      },
      undo: { Delete: { TableName: tableName(), Key: at } },
      final: true,
    },
  ];
}
