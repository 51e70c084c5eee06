import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { operations } from '../shared/contracts';
import type { Operation } from '../shared/contracts/types';
import { Alarms } from './alarms';
import { EventsApi } from './api';
import { Auth } from './auth';
import { families, OperationFamily, pascal } from './family';
import { ScheduledJobs } from './jobs';
import { mailIdentity, readSettings } from './settings';
import { Site } from './site';
import { EventsTable } from './table';
import { WebhookEngine } from './webhook-engine';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Settings the stack takes besides the context (tests pass a subset of the operations). */
export interface CalEventsStackProps extends StackProps {
  operations?: readonly Operation[];
}

/**
 * The whole service: table, token issuer, HTTP API, one nested stack per family of operations
 * (infra/family.ts), alarms, and the calendar page's hosting (a nested stack too, optional).
 *
 * Nothing of the API depends on the page's stack: an account not (yet) allowed to create CloudFront
 * distributions deploys with `-c site=false`, and the functions never wait for the distribution
 * (SITE_URL is `siteUrl`, required in prod, or else the API's own address; issue 38).
 */
export class CalEventsStack extends Stack {
  /** The families' nested stacks, by family (`events`, `venues`, ...). */
  readonly families = new Map<string, OperationFamily>();
  readonly site?: Site;
  /** The scheduled jobs' nested stack: the daily extend job of recurring events (infra/jobs.ts). */
  readonly jobs: ScheduledJobs;
  /** The webhook engine and the change bus (infra/webhook-engine.ts). */
  readonly webhooks: WebhookEngine;

  constructor(scope: Construct, id: string, props: CalEventsStackProps = {}) {
    super(scope, id, props);
    const settings = readSettings(this);
    const retain = settings.stage === 'prod';
    const ops = props.operations ?? operations;
    const functionPrefix = `${this.stackName}-`;

    const protect = settings.deletionProtection;
    const { table } = new EventsTable(this, 'Data', { retain, protect });
    const auth = new Auth(this, 'Auth', {
      oidc: settings.oidc,
      retain,
      protect,
      domainPrefix: settings.authDomainPrefix,
    });
    const common = {
      repoRoot: REPO_ROOT,
      table,
      logRetention: settings.logRetention,
      retainLogs: retain,
    };
    const environment = (siteUrl: string) => ({
      TABLE_NAME: table.tableName,
      SITE_URL: siteUrl,
      SITE_TIMEZONE: settings.siteTimezone,
      MAX_PER_PAGE: String(settings.maxPerPage),
      ICAL_MAX_EVENTS: String(settings.icalMaxEvents),
      CHANGES_SETTLE_SECONDS: String(settings.changesSettleSeconds),
      SERIES_HORIZON_MONTHS: String(settings.seriesHorizonMonths),
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
      MAIL_TRANSPORT: 'ses',
      REGISTRATION_LIMIT_PER_EMAIL: String(settings.registrationLimitPerEmail),
      REGISTRATION_LIMIT_PER_IP: String(settings.registrationLimitPerIp),
      REGISTRATION_LIMIT_WINDOW_SECONDS: String(settings.registrationLimitWindowSeconds),
      ...(settings.mailFrom ? { MAIL_FROM: settings.mailFrom } : {}),
      ...(settings.apiBaseUrl ? { API_BASE_URL: settings.apiBaseUrl } : {}),
      ...auth.environment,
    });

    // The site's address may be the distribution's, which needs the API first: read once both exist.
    let siteUrl: string | undefined;
    const siteUrlLater = Lazy.string({ produce: () => siteUrl });
    const api = new EventsApi(this, 'Api', {
      ...common,
      operations: ops,
      functionPrefix,
      environment: environment(siteUrlLater),
      corsAllowOrigins: settings.corsAllowOrigins,
      throttleRate: settings.throttleRate,
      throttleBurst: settings.throttleBurst,
    });
    const routes = ops.reduce((n, op) => n + op.methods.length, 1);
    if (settings.site) {
      // The calendar page and the API explorer, with the API on the same origin (infra/site.ts).
      this.site = new Site(this, 'Site', {
        httpApi: api.httpApi,
        distDir: fileURLToPath(new URL('../web/dist', import.meta.url)),
        retain,
        signIn: auth.userPool && auth.domain ? { userPool: auth.userPool, domain: auth.domain } : undefined,
        throttle: { rate: settings.throttleRate, burst: settings.throttleBurst, routes },
        // The public pages at the records' `url`s (issue 29), rendered by a function of the site's.
        pages: {
          ...common,
          environment: environment(siteUrlLater),
          functionName: `${functionPrefix}renderPage`,
          ticketFunctionName: `${functionPrefix}ticketPages`,
        },
      });
      new CfnOutput(this, 'SiteUrl', { value: this.site.url });
    }
    // Never the distribution's address: every function would then wait on the site's stack, and a
    // CloudFront refusal in a new account would roll the whole service back (prod requires siteUrl).
    siteUrl = settings.siteUrl ?? api.httpApi.apiEndpoint;
    if (!settings.siteUrl)
      Annotations.of(this).addWarningV2(
        'cal:siteUrlUnset',
        `Context "siteUrl" is not set: SITE_URL is the API's own address. Every url, global_id and ` +
          'iCalendar UID is built from it, so setting it later changes them all: set it before the ' +
          'first deploy (docs/operations.md).',
      );

    for (const [family, members] of families(ops)) {
      this.families.set(
        family,
        new OperationFamily(this, pascal(family), {
          ...common,
          operations: members,
          httpApi: api.httpApi,
          environment: environment(siteUrlLater),
          functionName: (operationId) => `${functionPrefix}${operationId}`,
        }),
      );
    }
    this.jobs = new ScheduledJobs(this, 'Jobs', {
      ...common,
      environment: environment(siteUrlLater),
      functionName: (job) => `${functionPrefix}${job}`,
      mailIdentityArn: settings.mailFrom
        ? this.formatArn({
            service: 'ses',
            resource: 'identity',
            resourceName: mailIdentity(settings.mailFrom),
          })
        : undefined,
    });
    this.webhooks = new WebhookEngine(this, 'WebhookEngine', {
      ...common,
      environment: environment(siteUrlLater),
      functionName: (name) => `${functionPrefix}${name}`,
      busName: `${this.stackName}-changes`,
      deliveryConcurrency: settings.webhookConcurrency,
    });
    new Alarms(this, 'Alarms', { api: api.httpApi, functions: api.functions, table });

    new CfnOutput(this, 'ApiUrl', { value: api.rootUrl });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'ChangeBusName', { value: this.webhooks.bus.eventBusName });
    if (auth.userPool && auth.userPoolClient) {
      new CfnOutput(this, 'UserPoolId', { value: auth.userPool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', { value: auth.userPoolClient.userPoolClientId });
      if (auth.domain) new CfnOutput(this, 'SignInUrl', { value: auth.domain.baseUrl() });
    }
  }
}
