import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

// Handlers read these when their modules load, so they are set before any test file imports them.
// The embedded DynamoDB runs only for the `stack` project's files (vitest.config.ts).
// The unit project's files get an address that refuses connections: clients are built as locally (no
// AWS credentials or endpoint looked up), and a unit test that reached the database would fail at once.
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint') ?? 'http://127.0.0.1:9';
Object.assign(process.env, {
  // A region of the file's own: the run's DynamoDB Local keeps one database per region (no -sharedDb),
  // so no file's writes slow another's (local/dynamo.ts says why that matters).
  AWS_REGION: `local-${randomUUID().slice(0, 8)}`,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  AUTH_LOCAL_SECRET: 'test-secret-for-the-local-issuer-only',
  SITE_URL: 'http://calendar.test',
  SITE_TIMEZONE: 'UTC',
  MAX_PER_PAGE: '50',
  TABLE_NAME: `t-${randomUUID()}`,
  // Webhooks may reach receivers on 127.0.0.1, as in the local stack (never deployed: shared/config.ts).
  CAL_OUTBOUND_LOCAL: '1',
  // Every test request comes from 127.0.0.1: anonymous registrations are limited per client address
  // (docs/tickets.md), so the files that race hundreds of them need room; tickets-registration-rules
  // sets its own limits.
  REGISTRATION_LIMIT_PER_IP: '100000',
  // A loaded CI machine can take more than a deployed function's 10 s; timing is the bench's to judge.
  CAL_LOCAL_FUNCTION_TIMEOUT_MS: '60000',
});
