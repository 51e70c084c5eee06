import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../local/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * One embedded DynamoDB for the whole run, without -sharedDb: each test file signs with a region of its
 * own (test/support/env.ts) and so works in a database of its own.
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startLocalStack({ dynamo: { sharedDb: false } });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
