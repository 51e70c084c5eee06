import type { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { dynamo, tableName } from './client';
import { keys } from './keys';
import { TABLE } from './table';

/**
 * Powertools' DynamoDB persistence layer on the one table (built by http/keyed-run.ts, loaded on
 * demand): the records of one create operation share the partition `IDEMPOTENCY#<operationId>`,
 * sorted by the hashed key; they expire through the table's TTL attribute. It sends through the
 * project's client, so DYNAMODB_ENDPOINT applies locally.
 */
export type IdempotencyStoreOptions = NonNullable<ConstructorParameters<typeof DynamoDBPersistenceLayer>[0]>;

export function idempotencyStore(operationId: string): IdempotencyStoreOptions {
  return {
    tableName: tableName(),
    keyAttr: TABLE.partitionKey,
    sortKeyAttr: TABLE.sortKey,
    staticPkValue: keys.idempotencyPartition(operationId),
    expiryAttr: TABLE.ttlAttribute,
    awsSdkV3Client: dynamo,
  };
}
