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
  /**
   * The four global secondary indexes. Their names are older than most of what they hold now, so read
   * each one's comment, not its name: they are the names of the deployed table, and renaming a GSI
   * means deleting it and creating another (CloudFormation takes one GSI creation or deletion per
   * update, and lists would read the new one while it backfills), so they stay. Every access pattern
   * that reads them is declared in `access-patterns.ts`, which docs/data-model.md lists.
   * Sort keys of event entries are event-local wall times (`Y-m-d H:i:s` in the event's own zone,
   * reference §4.3), not UTC.
   */
  indexes: {
    /** gsi1, by slug: posts of one type (`TYPE#<type>`) and terms of one taxonomy (`TAXONOMY#<taxonomy>`). */
    bySlug: { name: 'bySlug', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /**
     * gsi2, records in list order: events by event-local start, venues and organizers by UTC
     * publication date (`TYPE#<type>`), and terms by sort name (`TAXONOMY#<taxonomy>`).
     */
    byStart: { name: 'byStart', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** gsi3: events by event-local end (`TYPE#event`), and terms in use by the public count (`INUSE#public#…`) by name. */
    byEnd: { name: 'byEnd', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    /**
     * gsi4, entries by what they are filed under: an event's link rows by target (`<KIND>#<id>`) and
     * featured events (`FEATURED`), by event-local start; search words (`WORD#<xx>`); terms in use by
     * the editors' count (`INUSE#all#…`) by name.
     */
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
    // Webhooks' dispatcher reads new change-log items from the stream (docs/webhooks.md).
    StreamSpecification: STREAM,
  };
}

/** The table's stream: new images are all the webhook dispatcher reads; the CDK table declares the same. */
export const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } as const;
