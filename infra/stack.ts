import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { operations } from '../shared/contracts';
import { Alarms } from './alarms';
import { EventsApi } from './api';
import { Auth } from './auth';
import { readSettings } from './settings';
import { Site } from './site';
import { EventsTable } from './table';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The whole service: table, token issuer, HTTP API with one function per operation, alarms. */
export class CalEventsStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const settings = readSettings(this);
    const retain = settings.stage === 'prod';

    const { table } = new EventsTable(this, 'Data', { retain });
    const auth = new Auth(this, 'Auth', {
      oidc: settings.oidc,
      retain,
      domainPrefix: settings.authDomainPrefix,
    });
    const api = new EventsApi(this, 'Api', {
      repoRoot: REPO_ROOT,
      operations,
      table,
      environment: {
        TABLE_NAME: table.tableName,
        SITE_URL: settings.siteUrl,
        SITE_TIMEZONE: settings.siteTimezone,
        MAX_PER_PAGE: String(settings.maxPerPage),
        ICAL_MAX_EVENTS: String(settings.icalMaxEvents),
        CHANGES_SETTLE_SECONDS: String(settings.changesSettleSeconds),
        LOG_LEVEL: settings.logLevel,
        POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
        ...(settings.apiBaseUrl ? { API_BASE_URL: settings.apiBaseUrl } : {}),
        ...auth.environment,
      },
      corsAllowOrigins: settings.corsAllowOrigins,
      throttleRate: settings.throttleRate,
      throttleBurst: settings.throttleBurst,
      logRetention: settings.logRetention,
      retainLogs: retain,
    });
    new Alarms(this, 'Alarms', { api: api.httpApi, functions: api.functions, table });

    new CfnOutput(this, 'ApiUrl', { value: api.rootUrl });
    // The calendar page and the API explorer, with the API on the same origin (infra/site.ts).
    const site = new Site(this, 'Site', {
      httpApi: api.httpApi,
      distDir: fileURLToPath(new URL('../web/dist', import.meta.url)),
      retain,
      signIn: auth.userPool && auth.domain ? { userPool: auth.userPool, domain: auth.domain } : undefined,
    });
    if (site.webClient) auth.addAudience(site.webClient.userPoolClientId);
    new CfnOutput(this, 'SiteUrl', { value: site.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    if (auth.userPool && auth.userPoolClient) {
      new CfnOutput(this, 'UserPoolId', { value: auth.userPool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', { value: auth.userPoolClient.userPoolClientId });
      if (auth.domain) new CfnOutput(this, 'SignInUrl', { value: auth.domain.baseUrl() });
    }
  }
}
