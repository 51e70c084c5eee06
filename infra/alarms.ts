import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface AlarmsProps {
  api: IHttpApi;
  functions: ReadonlyMap<string, IFunction>;
  table: Table;
}

const PERIOD = Duration.minutes(5);
/** Share of requests answered 5xx (percent) that means an outage rather than one bug. */
export const API_5XX_RATE_PERCENT = 5;
/** An alarm's metric math takes at most ten metrics: throttles are watched ten functions at a time. */
const FUNCTIONS_PER_THROTTLE_ALARM = 10;
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
    const alarm = (name: string, metric: IMetric, description: string, threshold = 1) => {
      this.alarms.push(
        new Alarm(this, name, {
          metric,
          threshold,
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
    // Any 5xx is a bug (above); a high share of them is an outage.
    alarm(
      'Api5xxRate',
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
          requests: props.api.metricCount({ period: PERIOD, statistic: 'Sum' }),
        },
        period: PERIOD,
        label: '5xx share of requests (%)',
      }),
      `At least ${API_5XX_RATE_PERCENT}% of the API's requests answered 5xx`,
      API_5XX_RATE_PERCENT,
    );
    for (const [name, fn] of props.functions) {
      alarm(
        `${name[0]!.toUpperCase()}${name.slice(1)}Errors`,
        fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        `${name} failed invocations`,
      );
    }
    const functions = [...props.functions];
    for (let i = 0; i < functions.length; i += FUNCTIONS_PER_THROTTLE_ALARM) {
      const group = functions.slice(i, i + FUNCTIONS_PER_THROTTLE_ALARM);
      const usingMetrics = Object.fromEntries(
        group.map(([, fn], j) => [`t${j}`, fn.metricThrottles({ period: PERIOD, statistic: 'Sum' })]),
      );
      alarm(
        `FunctionThrottles${i / FUNCTIONS_PER_THROTTLE_ALARM + 1}`,
        new MathExpression({
          expression: Object.keys(usingMetrics).join(' + '),
          usingMetrics,
          period: PERIOD,
          label: 'Throttled invocations',
        }),
        `Throttled invocations of ${group.map(([name]) => name).join(', ')}`,
      );
    }
    alarm(
      'TableThrottles',
      props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD }),
      'DynamoDB throttled requests',
    );
  }
}
