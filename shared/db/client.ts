import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { waitForLocalCommits } from './local-commit';

const local = config.dynamoEndpoint && {
  endpoint: config.dynamoEndpoint,
  region: process.env.AWS_REGION ?? 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

/** One client per container, created at module scope so warm invocations reuse it. */
export const dynamo = new DynamoDBClient({ ...local, maxAttempts: 4 });
// DynamoDB Local acknowledges a transaction before committing it (shared/db/local-commit.ts).
if (local) waitForLocalCommits(dynamo, local);

/** The document client over it: what the repositories use. */
export const ddb = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });

export const tableName = () => config.tableName;
