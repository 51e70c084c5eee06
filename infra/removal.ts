import { RemovalPolicy } from 'aws-cdk-lib';

/**
 * What becomes of a stateful resource (table, user pool, log groups, buckets) when the stack lets go
 * of it. Prod keeps it when it is deleted or replaced, but not when its first create rolls back
 * (CloudFormation's RetainExceptOnCreate): a plain RETAIN would leave an empty orphan behind, whose
 * name then blocks the next deploy. Dev removes it.
 */
export const removalPolicy = (retain: boolean) =>
  retain ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
