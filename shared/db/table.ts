import type { CreateTableCommandInput, UpdateTimeToLiveCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The one table's shape, imported by the CDK construct and by the local stack, so that infra and
 * runtime cannot drift. Key values are built only in `keys.ts`.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * Time to live (epoch seconds): items carrying it (change-log entries, idempotency records) are
   * removed by DynamoDB some time after it; items without it live for ever.
   */
  ttlAttribute: 'expiration',
  indexes: {
    /** Records of one type (or terms of one taxonomy) by slug: slug look-ups, term lists, free slugs. */
    bySlug: { name: 'bySlug', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** Records of one type by date: events by UTC start, venues and organizers by publication date. */
    byStart: { name: 'byStart', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Events by UTC end (ends_before / ends_after and "still upcoming"). */
    byEnd: { name: 'byEnd', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    /** Link items by the record they point at: events of a term, venue or organizer, by start. */
    byAssignment: { name: 'byAssignment', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  },
} as const;

export type IndexName = (typeof TABLE.indexes)[keyof typeof TABLE.indexes]['name'];

/** UpdateTimeToLive input (CreateTable cannot enable TTL); the CDK construct sets the same attribute. */
export function timeToLiveInput(tableName: string): UpdateTimeToLiveCommandInput {
  return {
    TableName: tableName,
    TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
  };
}

/** CreateTable input for DynamoDB Local and tests; the CDK construct declares the same indexes. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const indexes = Object.values(TABLE.indexes);
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const ix of indexes) {
    attributes.add(ix.partitionKey);
    attributes.add(ix.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map((ix) => ({
      IndexName: ix.name,
      KeySchema: [
        { AttributeName: ix.partitionKey, KeyType: 'HASH' },
        { AttributeName: ix.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
