import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, type CfnResource, DockerImage, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { SERVICE_NAME } from '../shared/config';
import { operations } from '../shared/contracts';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '../shared/contracts/function-limits';
import { FUNCTION_ENTRY, functionBuild } from './bundle/build-options';
import { removalPolicy } from './removal';

/** The numbers are shared with the local gateway, which applies them too (shared/contracts/function-limits.ts). */
export { FUNCTION_MEMORY_MB } from '../shared/contracts/function-limits';
export const FUNCTION_TIMEOUT = Duration.seconds(FUNCTION_TIMEOUT_SECONDS);

/** What a nested stack of non-API functions (the scheduled jobs, the webhook engine) is given. */
export interface FunctionGroupProps {
  repoRoot: string;
  table: ITable;
  /** The functions' settings, as the API's. */
  environment: Record<string, string>;
  /** The fixed name of each function (`<stack name>-<name>`). */
  functionName: (name: string) => string;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

export interface ApiFunctionProps {
  /** Repository root: the handlers' modules and node_modules live there. */
  repoRoot: string;
  /** Module path relative to the root, without extension, as in the contracts. */
  handler: string;
  /**
   * The function's name, fixed so that the `$default` function can invoke it without a reference across
   * stacks (OPERATION_FUNCTION_PREFIX_ENV): `<stack name>-<operationId>`.
   */
  functionName: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  retainLogs: boolean;
  /** Files copied next to the bundle, by name in the bundle (the public pages' index.html). */
  files?: Record<string, string>;
  /** A scheduled job's longer run; requests keep FUNCTION_TIMEOUT. */
  timeout?: Duration;
  /** A background part's memory (shared/contracts/background.ts); requests keep FUNCTION_MEMORY_MB. */
  memoryMb?: number;
}

/** The construct ID of a background part's function: its name, capitalized (`extendSeries` → `ExtendSeries`). */
export const constructIdOf = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** Lambda's longest function name. */
const MAX_FUNCTION_NAME = 64;

/** One operation's function with the settings every function shares, and its own log group. */
export class ApiFunction extends Construct {
  readonly fn: LambdaFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    if (props.functionName.length > MAX_FUNCTION_NAME)
      throw new Error(`Function name ${props.functionName} is longer than ${MAX_FUNCTION_NAME} characters`);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: removalPolicy(props.retainLogs),
    });
    // Its own role, allowed to write to its own log group only (instead of the managed
    // AWSLambdaBasicExecutionRole, which may create and write any log group of the account).
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        Logs: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              resources: [logGroup.logGroupArn],
            }),
          ],
        }),
      },
    });
    this.fn = new LambdaFunction(this, 'Fn', {
      functionName: props.functionName,
      role,
      code: bundledCode(props.repoRoot, props.handler, props.files),
      handler: `${FUNCTION_ENTRY.replace(/\.mjs$/, '')}.handler`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? FUNCTION_MEMORY_MB,
      timeout: props.timeout ?? FUNCTION_TIMEOUT,
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        ...props.environment,
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      },
    });
    acknowledgeNagFindings(this);
  }
}

export interface DataFunctionProps extends ApiFunctionProps {
  table: ITable;
  /** Read-only functions get read-only data grants. */
  readOnly: boolean;
}

/** An operation's function with its grant on the table: read, or read and write. */
export function dataFunction(scope: Construct, id: string, props: DataFunctionProps): LambdaFunction {
  const construct = new ApiFunction(scope, id, props);
  const { fn } = construct;
  if (props.readOnly) props.table.grantReadData(fn);
  else props.table.grantReadWriteData(fn);
  const tableStack = Stack.of(props.table);
  const tableId = tableStack.getLogicalId(props.table.node.defaultChild as CfnResource);
  Validations.of(construct).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
    reason: "The table's grants cover its own global secondary indexes, which the queries read.",
  });
  return fn;
}

/**
 * The function's code, bundled by esbuild in this process when the stack is synthesized (as
 * infra/bundle/build-options.ts says: split into chunks, which CDK's NodejsFunction cannot do, as it
 * writes one file). The asset's hash is the bundle's, so a deploy uploads only functions that changed.
 */
function bundledCode(repoRoot: string, handler: string, files: Record<string, string> = {}): Code {
  return Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Docker is never used: local bundling below always answers, or fails the synth with esbuild's
      // error. CDK reuses one bundle for assets of the same folder and options, so the entry is named.
      image: DockerImage.fromRegistry('node:22'),
      command: ['esbuild', `${handler}.ts`],
      local: {
        tryBundle(outputDir) {
          const op = operations.find((o) => o.handler === handler);
          buildSync({ ...functionBuild(join(repoRoot, `${handler}.ts`), outputDir, op), sourcemap: true });
          for (const [name, from] of Object.entries(files)) copyFileSync(from, join(outputDir, name));
          return true;
        },
      },
    },
  });
}

/** cdk-nag (AWS Solutions) findings on every function that are intended, each with its reason. */
function acknowledgeNagFindings(scope: Construct): void {
  const ack = (id: string, reason: string) => Validations.of(scope).acknowledge({ id, reason });
  ack(
    'AwsSolutions-IAM5[Resource::*]',
    'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords take no resource but "*".',
  );
  ack(
    'AwsSolutions-L1',
    `Pinned on purpose to ${Runtime.NODEJS_22_X.name}, the runtime the bundles target and the tests run; ` +
      'moving to a newer runtime is a deliberate change with its own tests.',
  );
}
