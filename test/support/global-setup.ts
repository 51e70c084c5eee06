import type { TestProject } from 'vitest/node';
import { startDynamo } from '../../local/dynamo';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One embedded DynamoDB for the whole run; every test file makes its own table in it. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamo();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
