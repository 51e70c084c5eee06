import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  CHANGE_DETAIL_TEMPLATE,
  CHANGE_EVENT,
  DELIVERY_MAX_RECEIVES,
  DISPATCH_RETRY_ATTEMPTS,
  PIPE_RETRY_ATTEMPTS,
  WEBHOOK_ENGINE_TABLE_ACTIONS,
} from '../../infra/webhook-engine';
import { STREAM_BATCH_RESERVE_MS } from '../../shared/services/webhooks/engine';
import { WEBHOOK_QUEUE_URL_ENV } from '../../shared/config';
import { keys } from '../../shared/db/keys';
import { synth } from './synth';

/**
 * The deployed webhook engine and change bus (issue 28, infra/webhook-engine.ts, docs/webhooks.md):
 * the table's stream, the dispatcher's filtered mapping, the delivery queue and its dead letters, the
 * deliverer's partial batch responses, the alarms, the bus and its pipe, and every role's grants.
 * What the functions do with them is tested in test/handlers/webhook-engine.test.ts.
 */
const dev = synth();
const engine = dev.templates.find((t) => t.name === 'Test/WebhookEngine')!.template;
const resources = (type: string) => engine.findResources(type);
const only = (type: string) => {
  const found = Object.entries(resources(type));
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const fnId = (handler: string) =>
  Object.entries(resources('AWS::Lambda::Function')).find(
    ([, f]) =>
      JSON.stringify(f.Properties.Environment).includes(WEBHOOK_QUEUE_URL_ENV) &&
      f.Properties.FunctionName === `Test-${handler}`,
  )![0];
const dispatcherId = fnId('webhookDispatch');
const delivererId = fnId('webhookDeliver');
const mappingOf = (id: string) =>
  Object.values(resources('AWS::Lambda::EventSourceMapping')).find(
    (m) => m.Properties.FunctionName.Ref === id,
  )!.Properties;
const queueIds = () => {
  const queues = Object.entries(resources('AWS::SQS::Queue'));
  const id = (name: string) => queues.find(([k]) => k.startsWith(name))![0];
  return {
    deliveries: id('Deliveries'),
    deadLetters: id('DeadLetters'),
    failures: id('DispatchFailures'),
    busFailures: id('BusFailures'),
  };
};
const q = queueIds();
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
/** A value that reads the table's stream ARN from the parent stack. */
const isStreamArn = (v: unknown) => /StreamArn/.test(JSON.stringify(v));

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };
function statementsOf(roleId: string): Statement[] {
  const role = resources('AWS::IAM::Role')[roleId]!;
  const attached = engine.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return [
    ...((role.Properties.Policies ?? []) as Array<{ PolicyDocument: { Statement: Statement[] } }>),
    ...Object.values(attached).map((p) => p.Properties),
  ].flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}
const roleOf = (fn: string) => resources('AWS::Lambda::Function')[fn]!.Properties.Role['Fn::GetAtt'][0];
/** `action resource` of every statement but the log group's, resources as their logical IDs. */
const grants = (roleId: string) =>
  statementsOf(roleId)
    .filter((s) => ![s.Action].flat().some((a) => a.startsWith('logs:')))
    .flatMap((s) =>
      [s.Action].flat().flatMap((a) =>
        [s.Resource].flat().map((r) => {
          const text = JSON.stringify(r);
          const name = text === '"*"' ? '*' : isStreamArn(r) ? 'stream' : /Table/.test(text) ? 'table' : text;
          return `${a} ${name}${/index/.test(text) ? '/index/*' : ''}`;
        }),
      ),
    )
    .map((g) => g.replace(JSON.stringify(arnOf(q.deliveries)), 'deliveries'))
    .sort();

describe('the table stream', () => {
  it('is on, with new images: what the dispatcher and the pipe read', () => {
    dev.parent.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });
});

describe('the dispatcher', () => {
  const mapping = mappingOf(dispatcherId);

  it('reads the stream from its oldest record, one batch a shard at a time, reporting the first record to read again', () => {
    expect(isStreamArn(mapping.EventSourceArn)).toBe(true);
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      ParallelizationFactor: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRecordAgeInSeconds: 12 * 3600,
      DestinationConfig: { OnFailure: { Destination: arnOf(q.failures) } },
    });
  });

  it('takes small batches, splits one that fails, and gives a failing one up after finite tries (issue 38)', () => {
    expect(mapping).toMatchObject({
      BatchSize: 10,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: DISPATCH_RETRY_ATTEMPTS,
    });
    // Finite, and enough for a batch that stops for time after one record each try.
    expect(mapping.MaximumRetryAttempts).toBeGreaterThanOrEqual(0);
    expect(mapping.MaximumRetryAttempts).toBeGreaterThanOrEqual(mapping.BatchSize);
    // A try that stops for time keeps a reserve the function's time holds several times over.
    const timeout = resources('AWS::Lambda::Function')[dispatcherId]!.Properties.Timeout as number;
    expect(timeout * 1000).toBeGreaterThanOrEqual(3 * STREAM_BATCH_RESERVE_MS);
  });

  it('is given new change-log items and new or re-put jobs, nothing else', () => {
    const patterns = (mapping.FilterCriteria.Filters as Array<{ Pattern: string }>).map((f) =>
      JSON.parse(f.Pattern),
    );
    expect(patterns).toEqual([
      { eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [keys.changePartition] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [keys.jobPartition] } } } },
    ]);
  });

  it('runs for up to a minute and knows the delivery queue', () => {
    const fn = resources('AWS::Lambda::Function')[dispatcherId]!.Properties;
    expect(fn.Timeout).toBe(60);
    expect(fn.Environment.Variables[WEBHOOK_QUEUE_URL_ENV]).toEqual({ Ref: q.deliveries });
    expect(fn.Environment.Variables.TABLE_NAME).toBeDefined();
  });
});

describe('the delivery queue and its dead letters', () => {
  it('moves a job to the dead-letter queue after five runs that failed, holding it 14 days there', () => {
    const queues = resources('AWS::SQS::Queue');
    expect(queues[q.deliveries]!.Properties).toMatchObject({
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: arnOf(q.deadLetters), maxReceiveCount: DELIVERY_MAX_RECEIVES },
      SqsManagedSseEnabled: true,
    });
    expect(queues[q.deadLetters]!.Properties).toMatchObject({
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
  });

  it('refuses every request without TLS on every queue', () => {
    const policies = Object.values(resources('AWS::SQS::QueuePolicy'));
    expect(policies.flatMap((p) => p.Properties.Queues.map((r: { Ref: string }) => r.Ref)).sort()).toEqual(
      Object.values(q).sort(),
    );
    for (const p of policies)
      expect(p.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
  });

  it('hands the deliverer ten jobs at a time, two batches at once by default, with failures per message', () => {
    const mapping = mappingOf(delivererId);
    expect(mapping).toMatchObject({
      EventSourceArn: arnOf(q.deliveries),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      // Two of a new account's ten executions, not all of them (issue 38; it was 10).
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    expect(resources('AWS::Lambda::Function')[delivererId]!.Properties.Timeout).toBe(60);
  });
});

describe("the deliverer's concurrency setting (issue 38)", () => {
  it('takes the webhookConcurrency context', () => {
    const wider = synth({ webhookConcurrency: '5' }).templates.find((t) => t.name === 'Test/WebhookEngine')!;
    const mappings = Object.values(wider.template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.map((m) => m.Properties.ScalingConfig?.MaximumConcurrency).filter(Boolean)).toEqual([5]);
  });

  it('refuses what SQS event sources do not accept', () => {
    for (const bad of ['1', '1001', '2.5'])
      expect(() => synth({ webhookConcurrency: bad }), bad).toThrow(/webhookConcurrency.*2 to 1000/);
  });
});

describe('alarms', () => {
  const alarms = Object.values(resources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
  const on = (metric: string, dimension: unknown) =>
    alarms.filter(
      (a) => a.MetricName === metric && JSON.stringify(a.Dimensions).includes(JSON.stringify(dimension)),
    );

  it("watch the delivery queue's oldest message past its longest delay", () => {
    const [age] = on('ApproximateAgeOfOldestMessage', { 'Fn::GetAtt': [q.deliveries, 'QueueName'] });
    expect(age).toMatchObject({ Namespace: 'AWS/SQS', Statistic: 'Maximum', Threshold: 1200 });
    expect(age!.Threshold).toBeGreaterThan(900);
  });

  it('watch the dead letters and the stream batches the dispatcher or the pipe gave up: one is enough', () => {
    for (const id of [q.deadLetters, q.failures, q.busFailures]) {
      const [depth] = on('ApproximateNumberOfMessagesVisible', { 'Fn::GetAtt': [id, 'QueueName'] });
      expect(depth, id).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it("watch the dispatcher's lag behind the stream and both functions' errors, firing within five minutes", () => {
    const within5Minutes = { Period: 300, EvaluationPeriods: 1 };
    expect(on('IteratorAge', { Ref: dispatcherId })[0]).toMatchObject({
      Threshold: 5 * 60_000,
      Statistic: 'Maximum',
      ...within5Minutes,
    });
    for (const id of [dispatcherId, delivererId]) {
      expect(on('Errors', { Ref: id }), id).toHaveLength(1);
      expect(on('Errors', { Ref: id })[0], id).toMatchObject({ Threshold: 1, ...within5Minutes });
    }
  });
});

describe('the change bus', () => {
  const [busId, bus] = only('AWS::Events::EventBus');
  const [, pipe] = only('AWS::Pipes::Pipe');

  it('is a custom bus named after the stack, its name an output of the stack', () => {
    expect(bus.Properties.Name).toBe('Test-changes');
    expect(Object.keys(dev.parent.findOutputs('ChangeBusName'))).toEqual(['ChangeBusName']);
  });

  it('is fed by a pipe from the stream, filtered to new change-log items, as cal.events / Calendar change', () => {
    expect(isStreamArn(pipe.Properties.Source)).toBe(true);
    expect(pipe.Properties.Target).toEqual(arnOf(busId));
    expect(pipe.Properties.SourceParameters.DynamoDBStreamParameters.StartingPosition).toBe('TRIM_HORIZON');
    expect(JSON.parse(pipe.Properties.SourceParameters.FilterCriteria.Filters[0].Pattern)).toEqual({
      eventName: ['INSERT'],
      dynamodb: { Keys: { pk: { S: [keys.changePartition] } } },
    });
    expect(pipe.Properties.TargetParameters).toEqual({
      EventBridgeEventBusParameters: { Source: 'cal.events', DetailType: 'Calendar change' },
      InputTemplate: CHANGE_DETAIL_TEMPLATE,
    });
    expect(CHANGE_EVENT).toEqual({ source: 'cal.events', detailType: 'Calendar change' });
  });

  it('gives up a batch the bus keeps refusing after 12 hours, recording its place in a queue kept 14 days', () => {
    expect(pipe.Properties.SourceParameters.DynamoDBStreamParameters).toMatchObject({
      MaximumRecordAgeInSeconds: 12 * 3600,
      DeadLetterConfig: { Arn: arnOf(q.busFailures) },
    });
    expect(resources('AWS::SQS::Queue')[q.busFailures]!.Properties).toMatchObject({
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
  });

  it('gives a refused batch finite tries, splitting one put in part, and alarms on a failed execution (issue 38)', () => {
    expect(pipe.Properties.SourceParameters.DynamoDBStreamParameters).toMatchObject({
      MaximumRetryAttempts: PIPE_RETRY_ATTEMPTS,
      OnPartialBatchItemFailure: 'AUTOMATIC_BISECT',
    });
    expect(PIPE_RETRY_ATTEMPTS).toBeGreaterThanOrEqual(0);
    expect(PIPE_RETRY_ATTEMPTS).toBeLessThanOrEqual(20);
    const [pipeId] = only('AWS::Pipes::Pipe');
    const failed = Object.values(resources('AWS::CloudWatch::Alarm'))
      .map((a) => a.Properties)
      .filter((a) => a.MetricName === 'ExecutionFailed');
    expect(failed).toEqual([
      expect.objectContaining({
        Namespace: 'AWS/EventBridge/Pipes',
        Dimensions: [{ Name: 'PipeName', Value: { Ref: pipeId } }],
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      }),
    ]);
  });

  it("is the stream's second reader, with the dispatcher: DynamoDB advises no more than two", () => {
    const readers = [
      ...Object.values(resources('AWS::Lambda::EventSourceMapping')).map((m) => m.Properties.EventSourceArn),
      ...Object.values(resources('AWS::Pipes::Pipe')).map((p) => p.Properties.Source),
    ].filter(isStreamArn);
    const elsewhere = dev.templates
      .filter((t) => t.name !== 'Test/WebhookEngine')
      .flatMap((t) => [
        ...Object.values(t.template.findResources('AWS::Lambda::EventSourceMapping')),
        ...Object.values(t.template.findResources('AWS::Pipes::Pipe')),
      ]);
    expect(readers).toHaveLength(2);
    expect(elsewhere).toEqual([]);
  });

  it("gives each change's fields as JSON: the template is JSON once its paths are filled", () => {
    const filled = CHANGE_DETAIL_TEMPLATE.replace(/"<\$[^>]+>"/g, '"x"').replace(/<\$[^>]+>/g, '{}');
    expect(Object.keys(JSON.parse(filled))).toEqual(['position', 'resource', 'id', 'modified_utc', 'image']);
  });

  it('runs as a role Pipes alone assumes, reading the stream and putting events on this bus only', () => {
    const roleId = pipe.Properties.RoleArn['Fn::GetAtt'][0] as string;
    const trust = resources('AWS::IAM::Role')[roleId]!.Properties.AssumeRolePolicyDocument.Statement;
    expect(trust).toEqual([
      expect.objectContaining({ Principal: { Service: 'pipes.amazonaws.com' }, Action: 'sts:AssumeRole' }),
    ]);
    expect(grants(roleId)).toEqual([
      'dynamodb:DescribeStream stream',
      'dynamodb:GetRecords stream',
      'dynamodb:GetShardIterator stream',
      'dynamodb:ListStreams *',
      `events:PutEvents ${JSON.stringify(arnOf(busId))}`,
      // Its failure queue.
      ...['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map(
        (a) => `${a} ${JSON.stringify(arnOf(q.busFailures))}`,
      ),
    ]);
    expect(engine.toJSON().Resources[Object.keys(resources('AWS::Pipes::Pipe'))[0]!].DependsOn).toEqual(
      expect.arrayContaining([roleId]),
    );
  });
});

describe('least privilege', () => {
  const table = WEBHOOK_ENGINE_TABLE_ACTIONS.map((a) => `${a} table`);
  const xray = ['xray:PutTelemetryRecords *', 'xray:PutTraceSegments *'];

  it('lets the dispatcher read the stream, work on the table without Scan or batch writes, and send to the queue', () => {
    expect(grants(roleOf(dispatcherId))).toEqual(
      [
        ...table,
        'dynamodb:Query table/index/*',
        'sqs:SendMessage deliveries',
        'dynamodb:DescribeStream stream',
        'dynamodb:GetRecords stream',
        'dynamodb:GetShardIterator stream',
        'dynamodb:ListStreams *',
        // Its on-failure destination.
        ...['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map(
          (a) => `${a} ${JSON.stringify(arnOf(q.failures))}`,
        ),
        ...xray,
      ].sort(),
    );
  });

  it('lets the deliverer take and send jobs of the delivery queue only, and work on the table', () => {
    expect(grants(roleOf(delivererId))).toEqual(
      [
        ...table,
        'dynamodb:Query table/index/*',
        'sqs:SendMessage deliveries',
        ...[
          'sqs:ChangeMessageVisibility',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
        ].map((a) => `${a} deliveries`),
        ...xray,
      ].sort(),
    );
  });

  it('gives the functions no role beyond their own, and their own log groups', () => {
    for (const id of [dispatcherId, delivererId]) {
      const role = resources('AWS::IAM::Role')[roleOf(id)]!.Properties;
      expect(role.ManagedPolicyArns, id).toBeUndefined();
      expect(role.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
        Service: 'lambda.amazonaws.com',
      });
    }
    engine.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: Match.anyValue() });
  });
});
