import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface AlarmsProps {
  api: IHttpApi;
  functions: ReadonlyMap<string, IFunction>;
  table: Table;
}

const PERIOD = Duration.minutes(5);
/** The operations the repositories issue; an alarm's metric math takes at most ten metrics. */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

/** Alarms without actions: wire them to a topic or a pager per deployment. */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const alarm = (name: string, metric: IMetric, description: string) => {
      this.alarms.push(
        new Alarm(this, name, {
          metric,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: description,
        }),
      );
    };

    alarm(
      'Api5xx',
      props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
      'The API answered 5xx',
    );
    for (const [name, fn] of props.functions) {
      alarm(
        `${name[0]!.toUpperCase()}${name.slice(1)}Errors`,
        fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        `${name} failed invocations`,
      );
    }
    alarm(
      'TableThrottles',
      props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD }),
      'DynamoDB throttled requests',
    );
  }
}
