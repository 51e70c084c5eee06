import { join } from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../shared/config';
import { BUNDLE_ALIASES } from './bundle/aliases';

/** Lambda's CPU share grows with memory; 512 MB keeps cold starts (module init, validators) short. */
export const FUNCTION_MEMORY_MB = 512;
export const FUNCTION_TIMEOUT = Duration.seconds(10);

export interface ApiFunctionProps {
  /** Repository root: entries, package-lock.json and tsconfig.json live there. */
  repoRoot: string;
  /** Module path relative to the root, without extension, as in the contracts. */
  handler: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  retainLogs: boolean;
}

/** One operation's function with the settings every function shares, and its own log group. */
export class ApiFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
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
    this.fn = new NodejsFunction(this, 'Fn', {
      role,
      entry: join(props.repoRoot, `${props.handler}.ts`),
      handler: 'handler',
      depsLockFilePath: join(props.repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: FUNCTION_TIMEOUT,
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        ...props.environment,
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        esbuildArgs: Object.fromEntries(
          Object.entries(BUNDLE_ALIASES).map(([name, path]) => [`--alias:${name}`, path]),
        ),
      },
    });
    acknowledgeNagFindings(this);
  }
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
