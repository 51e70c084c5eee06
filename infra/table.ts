import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { STREAM, TABLE } from '../shared/db/table';
import { removalPolicy } from './removal';

export interface EventsTableProps {
  /** Prod keeps the data: the table survives stack deletion. */
  retain: boolean;
  /** DynamoDB refuses to delete the table, whoever asks (settings.deletionProtection). */
  protect: boolean;
}

/** The one table; keys and indexes come from the same definition the runtime and DynamoDB Local use. */
export class EventsTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: EventsTableProps) {
    super(scope, id);
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new Table(this, 'Table', {
      partitionKey: key(TABLE.partitionKey),
      sortKey: key(TABLE.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      // The webhook engine and the change bus read new change-log items and jobs from it (infra/webhook-engine.ts).
      // Two readers, DynamoDB's advised maximum per shard: a third reads the change bus instead.
      stream: StreamViewType[STREAM.StreamViewType],
      deletionProtection: props.protect,
      removalPolicy: removalPolicy(props.retain),
    });
    for (const ix of Object.values(TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: ix.name,
        partitionKey: key(ix.partitionKey),
        sortKey: key(ix.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
