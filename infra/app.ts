import { App } from 'aws-cdk-lib';
import { CalEventsStack } from './stack';

const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
// One stack per stage, so dev and prod can live in the same account.
new CalEventsStack(app, `CalEvents-${stage}`, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: `Event calendar REST API (cal/events/v1), ${stage}`,
});
app.synth();
