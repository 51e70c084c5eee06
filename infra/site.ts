import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, Fn, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  type BehaviorOptions,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  type IUserPool,
  OAuthScope,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { PAGE_PREFIXES, PAGE_ROUTES, TICKET_PAGE_PATTERNS } from '../shared/domain/page-paths';
import { PAGE_MAX_AGE_SECONDS } from '../shared/http/page-reply';
import type { SignInConfig } from '../web/src/signin-config';
import { NO_AUTHORIZER_REASON } from './api';
import { FunctionAlarms } from './alarms';
import { dataFunction } from './function-defaults';
import { removalPolicy } from './removal';

export interface SiteProps {
  /** The HTTP API, served by the same distribution under `/cal/*`. */
  httpApi: HttpApi;
  /** The built page (web/dist: `npm run build:web`; cdk.json's app command builds it first). */
  distDir: string;
  retain: boolean;
  /** Cognito's hosted sign-in for the page; without it (an external OIDC issuer) users paste a token. */
  signIn?: { userPool: IUserPool; domain: UserPoolDomain };
  /** The stage's throttle, for what cdk-nag is told about it: requests per second on each of `routes`. */
  throttle: { rate: number; burst: number; routes: number };
  /**
   * The public pages' function (functions/pages): the table it reads, the functions' settings. Without
   * it (the build test) the distribution has no page behaviours.
   */
  pages?: {
    repoRoot: string;
    table: ITable;
    environment: Record<string, string>;
    functionName: string;
    /** The tickets' pages' function (form posts, the attendee's own pages), which writes. */
    ticketFunctionName: string;
    logRetention: RetentionDays;
    retainLogs: boolean;
  };
}

/** The HTTP API's route keys of one of the page functions (shared/domain/page-paths.ts, PAGE_ROUTES). */
const routeKeysOf = (fn: 'render' | 'tickets') =>
  PAGE_ROUTES.filter((r) => r.fn === fn).flatMap((r) =>
    r.methods.map((method) => `${method} ${r.prefix}{proxy+}`),
  );

/** The routes of the public pages on the HTTP API: GET and HEAD below each page prefix. */
export const PAGE_ROUTE_KEYS = routeKeysOf('render');
/**
 * The routes of the tickets' pages (docs/tickets.md, "Pages"): the event page's registration form
 * (`POST /event/…`) and the attendee's own pages (`GET`, `HEAD`, `POST /attendee/…`).
 */
export const TICKET_PAGE_ROUTE_KEYS = routeKeysOf('tickets');

/** What a path without a file name serves (the same map as local/web.ts). */
const PAGES_FUNCTION = `function handler(event) {
  var r = event.request;
  if (r.uri === '/docs' || r.uri === '/docs/') r.uri = '/docs/index.html';
  else if (r.uri.endsWith('/')) r.uri += 'index.html';
  return r;
}`;

/**
 * The API builds its links (rest_url, next_rest_url, the servers of /doc) from X-Forwarded-Host when
 * there is one (shared/http/urls.ts); CloudFront sends the API's own host name as Host, so the viewer's
 * is passed on here and links point at the site, not at execute-api. Whatever a client sent is replaced.
 */
const API_HOST_FUNCTION = `function handler(event) {
  var r = event.request;
  r.headers['x-forwarded-host'] = { value: r.headers.host.value };
  return r;
}`;

/**
 * The calendar page and the API on one origin: a private S3 bucket (reached only by CloudFront through
 * Origin Access Control) as the default origin, and the HTTP API as a second origin under `/cal/*`,
 * never cached, every method, the Authorization header and query strings passed through. HTTPS only.
 *
 * A nested stack of the service's stack: deployed with it, but with a template of its own, so the
 * helper functions that copying files to S3 needs (BucketDeployment's) stay apart from the API's
 * functions and what is checked of them.
 */
export class Site extends NestedStack {
  readonly bucket: Bucket;
  readonly logs: Bucket;
  readonly distribution: Distribution;
  /**
   * The page's OAuth client (authorization code with PKCE). The API trusts it as it trusts every client
   * of the stack's own pool (infra/auth.ts), so no function waits for this stack.
   */
  readonly webClient?: UserPoolClient;
  /** The public pages' function (`renderPage`), when the site has the pages. */
  renderPage?: LambdaFunction;
  /** The tickets' pages' function (`ticketPages`), when the site has the pages. */
  ticketPages?: LambdaFunction;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id, { description: 'Event calendar page: S3 bucket and CloudFront distribution' });
    const lifetime = {
      removalPolicy: removalPolicy(props.retain),
      autoDeleteObjects: !props.retain,
    };
    // Access logs of the bucket and of the distribution. CloudFront's standard logs are delivered with
    // an ACL grant, so this bucket (only this one) keeps ACLs enabled; it is private all the same.
    this.logs = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(props.retain ? 365 : 30) }],
      ...lifetime,
    });
    Validations.of(this.logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket of the site: logging its own access would log the logs.',
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 's3/',
      ...lifetime,
    });

    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint)), {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      readTimeout: Duration.seconds(30),
    });
    const pages = new CloudFrontFunction(this, 'Pages', {
      code: FunctionCode.fromInline(PAGES_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Maps / and /docs to their index.html',
    });
    const apiHost = new CloudFrontFunction(this, 'ApiHost', {
      code: FunctionCode.fromInline(API_HOST_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Passes the viewer's host name to the API for its links",
    });

    const pageBehaviors = props.pages
      ? this.pageBehaviors(props.pages, props.httpApi, apiOrigin, apiHost)
      : {};

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Event calendar page and API',
      defaultRootObject: 'index.html',
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: 'cloudfront/',
      httpVersion: HttpVersion.HTTP2_AND_3,
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
        functionAssociations: [{ function: pages, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/cal/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every viewer header but Host (API Gateway answers only to its own name), Authorization
          // included, and every query string.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          compress: true,
          functionAssociations: [{ function: apiHost, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        ...pageBehaviors,
      },
    });

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'A public calendar, for visitors from anywhere: no country is to be turned away.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason: throttleReason({
        ...props.throttle,
        routes:
          props.throttle.routes + (props.pages ? PAGE_ROUTE_KEYS.length + TICKET_PAGE_ROUTE_KEYS.length : 0),
      }),
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution answers on CloudFront's default *.cloudfront.net certificate, whose minimum " +
        'protocol CloudFront fixes; with a custom domain and certificate, TLSv1.2_2021 (set here) applies.',
    });

    const sources = [Source.asset(resolveDist(this, props.distDir))];
    if (props.signIn) {
      this.webClient = this.signInClient(props.signIn.userPool);
      sources.push(Source.jsonData('auth-config.json', this.signInConfig(props.signIn.domain)));
    }
    new BucketDeployment(this, 'Deploy', {
      sources,
      // app.js and app.css keep their names from one build to the next: browsers must revalidate them
      // (a 304 when unchanged) rather than run a stale script after a deploy. The edge is invalidated.
      cacheControl: [CacheControl.noCache()],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    this.acknowledgeDeploymentHandler();
  }

  /**
   * The public pages (`/event/<slug>/`, ...: shared/domain/page-paths.ts), rendered by a function of
   * their own behind the HTTP API (routes outside the API's namespace), read-only on the table. CloudFront
   * keeps each page for PAGE_MAX_AGE_SECONDS at most (the function's Cache-Control), by its path alone:
   * no query string, header or cookie reaches the function, which renders for an anonymous visitor.
   * The function lives here, not in the API's families: its SITE_URL may be this distribution's address.
   */
  private pageBehaviors(
    pages: NonNullable<SiteProps['pages']>,
    httpApi: HttpApi,
    origin: HttpOrigin,
    apiHost: CloudFrontFunction,
  ): Record<string, BehaviorOptions> {
    const fn = dataFunction(this, 'RenderPage', {
      repoRoot: pages.repoRoot,
      handler: 'functions/pages/render-page',
      functionName: pages.functionName,
      environment: pages.environment,
      logRetention: pages.logRetention,
      retainLogs: pages.retainLogs,
      table: pages.table,
      readOnly: true,
      // The calendar page every public page is rendered into (functions/pages/shell.ts).
      files: { 'index.html': join(pages.repoRoot, 'web', 'src', 'index.html') },
    });
    this.renderPage = fn;
    // The tickets' pages write (a registration, a cancellation): a function of their own, so the
    // public pages' stays read-only.
    const tickets = dataFunction(this, 'TicketPages', {
      repoRoot: pages.repoRoot,
      handler: 'functions/pages/ticket-pages',
      functionName: pages.ticketFunctionName,
      environment: pages.environment,
      logRetention: pages.logRetention,
      retainLogs: pages.retainLogs,
      table: pages.table,
      readOnly: false,
      // A refused registration shows the event's page again, rendered into the calendar page.
      files: { 'index.html': join(pages.repoRoot, 'web', 'src', 'index.html') },
    });
    this.ticketPages = tickets;
    const routes: Array<[string, string[], LambdaFunction]> = [
      ['RenderPageIntegration', PAGE_ROUTE_KEYS, fn],
      ['TicketPagesIntegration', TICKET_PAGE_ROUTE_KEYS, tickets],
    ];
    for (const [id, keys, target] of routes) {
      const integration = new HttpLambdaIntegration(id, target);
      for (const key of keys) {
        const [method, path] = key.split(' ') as ['GET' | 'HEAD' | 'POST', string];
        new HttpRoute(this, `Page${method}${path.replace(/[^A-Za-z]/g, '')}`, {
          httpApi,
          routeKey: HttpRouteKey.with(path, HttpMethod[method]),
          integration,
        });
      }
    }
    Validations.of(this).acknowledge({ id: 'AwsSolutions-APIG4', reason: NO_AUTHORIZER_REASON });
    new FunctionAlarms(this, 'PageAlarms', {
      functions: new Map([
        ['renderPage', fn],
        ['ticketPages', tickets],
      ]),
    });

    const cachePolicy = new CachePolicy(this, 'PageCache', {
      comment: 'Public pages: by path only, kept as long as the page says (at most a few minutes)',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(PAGE_MAX_AGE_SECONDS),
      maxTtl: Duration.seconds(5 * PAGE_MAX_AGE_SECONDS),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const behavior: BehaviorOptions = {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy,
      responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      compress: true,
    };
    // The tickets' pages: never cached (a form's answer, the attendee's own), every method (CloudFront
    // offers GET/HEAD, GET/HEAD/OPTIONS or all: a POST needs all; API Gateway answers the others 404 or
    // 405), the viewer's headers and query passed on (Origin and Sec-Fetch-Site for the cross-site
    // check, the body's Content-Type, the attendee's token), the viewer's host as X-Forwarded-Host (what
    // the Origin is checked against), and no Referer sent from them (their address holds the secret).
    const ticketBehavior: BehaviorOptions = {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: new ResponseHeadersPolicy(this, 'TicketPageHeaders', {
        comment: "The tickets' pages: the security headers, and no Referer from the attendee's page",
        securityHeadersBehavior: {
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
          strictTransportSecurity: {
            accessControlMaxAge: Duration.days(365),
            includeSubdomains: false,
            override: true,
          },
        },
      }),
      compress: true,
      functionAssociations: [{ function: apiHost, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
    // First: `/event/*/register/` refines the public pages' `/event/*`, and behaviours match in order.
    return Object.fromEntries([
      ...TICKET_PAGE_PATTERNS.map((pattern) => [pattern, ticketBehavior] as const),
      ...PAGE_PREFIXES.map((prefix) => [`${prefix}*`, behavior] as const),
    ]);
  }

  /**
   * A public client (no secret: the page cannot keep one) for the authorization code flow, which the
   * page runs with PKCE. Callback and sign-out return to the site itself, so this client is made here,
   * after the distribution.
   */
  private signInClient(userPool: IUserPool): UserPoolClient {
    return new UserPoolClient(this, 'WebClient', {
      userPool,
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [`${this.url}/`],
        logoutUrls: [`${this.url}/`],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(1),
    });
  }

  private signInConfig(domain: UserPoolDomain): SignInConfig {
    const base = domain.baseUrl();
    return {
      authorizeUrl: `${base}/oauth2/authorize`,
      tokenUrl: `${base}/oauth2/token`,
      logoutUrl: `${base}/logout`,
      clientId: this.webClient!.userPoolClientId,
      scope: 'openid email profile',
      provider: 'Cognito',
    };
  }

  /**
   * cdk-nag's findings on BucketDeployment's handler, a function CDK writes and maintains (its runtime,
   * its role with the basic execution policy, its grants on CDK's asset bucket and on this bucket).
   */
  private acknowledgeDeploymentHandler(): void {
    const bucketId = this.getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    const handler = this.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!handler) return;
    const reason =
      "CDK's own BucketDeployment handler copies the built page from CDK's asset bucket to the site " +
      'bucket; its runtime, role and grants (those two buckets only) are what CDK gives it.';
    const findings = [
      'AwsSolutions-L1',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      'AwsSolutions-IAM5[Action::s3:GetBucket*]',
      'AwsSolutions-IAM5[Action::s3:List*]',
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
      'AwsSolutions-IAM5[Action::s3:Abort*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
      // CloudFront's CreateInvalidation takes no resource but "*".
      'AwsSolutions-IAM5[Resource::*]',
    ];
    for (const id of findings) Validations.of(handler).acknowledge({ id, reason });
  }

  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }
}

/**
 * Why the distribution has no WAF: what the stage's throttle really bounds. An HTTP API stage throttles
 * each route on its own (there is no stage total), so the API as a whole takes up to routes × rate.
 */
export function throttleReason(t: SiteProps['throttle']): string {
  return (
    `The page is static; the API's stage throttles each of its ${t.routes} routes at ${t.rate} requests ` +
    `per second (burst ${t.burst}), up to ${t.routes * t.rate} per second in all, within the account's ` +
    "regional API Gateway quota and the functions' concurrency. A WAF web ACL (created in us-east-1, " +
    'billed per rule) with a rate-based rule is left to deployments that need a lower total.'
  );
}

/**
 * The built page, or — when this stack is synthesized without bundling (the infra tests, and
 * `cdk synth` of other stacks, as CDK's `aws:cdk:bundling-stacks` says) — a placeholder so that a
 * template can be checked without building the page first. A deployment needs the build: without it,
 * synthesis stops here with what to run.
 */
function resolveDist(scope: Construct, distDir: string): string {
  if (existsSync(join(distDir, 'index.html'))) return distDir;
  if (!Stack.of(scope).bundlingRequired) return join(import.meta.dirname, 'site-placeholder');
  throw new Error(
    `The calendar page is not built (${distDir}/index.html is missing): run \`npm run build:web\` before \`cdk synth\` / \`cdk deploy\`.`,
  );
}
