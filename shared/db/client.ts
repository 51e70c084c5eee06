import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

/** One client per container, created at module scope so warm invocations reuse it. */
export const dynamo = new DynamoDBClient({
  endpoint: config.dynamoEndpoint,
  ...(config.dynamoEndpoint
    ? {
        region: process.env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {}),
  maxAttempts: 4,
});

/** The document client over it: what the repositories use. */
export const ddb = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });

export const tableName = () => config.tableName;
