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
  /** The functions of this stack (the `$default` one); each family's are watched in its own stack. */
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
  // The batched writes (shared/db/query.ts: imports, bulk deletes) issue it too (issue 38).
  Operation.BATCH_WRITE_ITEM,
];

/** An alarm at or above `threshold`, without data counting as fine. */
function alarm(scope: Construct, name: string, metric: IMetric, description: string, threshold = 1): Alarm {
  return new Alarm(scope, name, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });
}

/**
 * The sum of metrics, each read as 0 where it has no data point: a function not invoked in the period
 * publishes no Throttles at all, and a plain sum of it with a busy one has no value, so the alarm would
 * never see the busy one's throttles.
 */
export function sumFilled(metrics: Record<string, IMetric>, label: string): MathExpression {
  return new MathExpression({
    expression: Object.keys(metrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics: metrics,
    period: PERIOD,
    label,
  });
}

/** The errors of each function and their throttles, ten functions an alarm. */
export class FunctionAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: { functions: ReadonlyMap<string, IFunction> }) {
    super(scope, id);
    for (const [name, fn] of props.functions) {
      this.alarms.push(
        alarm(
          this,
          `${name[0]!.toUpperCase()}${name.slice(1)}Errors`,
          fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
          `${name} failed invocations`,
        ),
      );
    }
    const functions = [...props.functions];
    for (let i = 0; i < functions.length; i += FUNCTIONS_PER_THROTTLE_ALARM) {
      const group = functions.slice(i, i + FUNCTIONS_PER_THROTTLE_ALARM);
      const metrics = Object.fromEntries(
        group.map(([, fn], j) => [`t${j}`, fn.metricThrottles({ period: PERIOD, statistic: 'Sum' })]),
      );
      this.alarms.push(
        alarm(
          this,
          `FunctionThrottles${i / FUNCTIONS_PER_THROTTLE_ALARM + 1}`,
          sumFilled(metrics, 'Throttled invocations'),
          `Throttled invocations of ${group.map(([name]) => name).join(', ')}`,
        ),
      );
    }
  }
}

/** Alarms without actions: wire them to a topic or a pager per deployment. */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const add = (name: string, metric: IMetric, description: string, threshold = 1) => {
      this.alarms.push(alarm(this, name, metric, description, threshold));
    };

    add('Api5xx', props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }), 'The API answered 5xx');
    // Any 5xx is a bug (above); a high share of them is an outage.
    add(
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
    this.alarms.push(...new FunctionAlarms(this, 'Functions', { functions: props.functions }).alarms);
    add(
      'TableThrottles',
      // CDK's metricThrottledRequestsForOperations sums without FILL: the same blind spot as above.
      sumFilled(
        Object.fromEntries(
          TABLE_OPERATIONS.map((op) => [
            op.toLowerCase(),
            props.table.metric('ThrottledRequests', {
              dimensionsMap: { TableName: props.table.tableName, Operation: op },
              statistic: 'Sum',
              period: PERIOD,
            }),
          ]),
        ),
        'DynamoDB throttled requests',
      ),
      'DynamoDB throttled requests',
    );
  }
}
