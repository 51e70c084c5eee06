import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { describe, expect, it } from 'vitest';
import { PAGE_ROUTE_KEYS, Site, TICKET_PAGE_ROUTE_KEYS, throttleReason } from '../../infra/site';
import { PAGE_PREFIXES, TICKET_PAGE_PATTERNS } from '../../shared/domain/page-paths';
import { PAGE_MAX_AGE_SECONDS } from '../../shared/http/page-reply';
import { CalEventsStack } from '../../infra/stack';
import { operations } from '../../shared/contracts';
import { synth as synthApp } from './synth';

/**
 * The page's hosting (infra/site.ts), a nested stack of the service's stack. Synthesized as the stack
 * tests do, without bundling: the page need not be built for these checks (a placeholder stands in).
 */
function synth() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new CalEventsStack(app, 'Test');
  const site = stack.node.findChild('Site') as Site;
  return { parent: Template.fromStack(stack), template: Template.fromStack(site), stack, site };
}

const { parent, template } = synth();

// CloudFront's managed policies, by their fixed IDs.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const distribution = () =>
  Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties
    .DistributionConfig as Record<string, any>;
const originOf = (behavior: Record<string, any>) =>
  (distribution().Origins as Array<Record<string, any>>).find((o) => o.Id === behavior.TargetOriginId)!;

const PRIVATE = {
  BlockPublicAcls: true,
  BlockPublicPolicy: true,
  IgnorePublicAcls: true,
  RestrictPublicBuckets: true,
};

describe('the bucket', () => {
  it('is private: every public access blocked, no website hosting, objects owned by the bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: PRIVATE,
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      WebsiteConfiguration: Match.absent(),
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 's3/' },
    });
  });

  it('has a private, encrypted bucket for the access logs, its only other bucket', () => {
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.allResourcesProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: PRIVATE,
      BucketEncryption: Match.anyValue(),
      WebsiteConfiguration: Match.absent(),
    });
    expect(distribution().Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });

  it('is encrypted and refuses requests without TLS, as is the log bucket', () => {
    template.allResourcesProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    template.resourceCountIs('AWS::S3::BucketPolicy', 2);
    template.allResourcesProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('lets only this distribution read it, through Origin Access Control', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const statements = Object.values(template.findResources('AWS::S3::BucketPolicy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Array<Record<string, any>>,
    );
    const allows = statements.filter((s) => s.Effect === 'Allow');
    // Nobody at large: no Allow names every principal.
    for (const s of allows) expect(JSON.stringify(s.Principal)).not.toMatch(/"\*"/);
    // Reading objects: CloudFront only, for this distribution only.
    const reads = allows.filter((s) => [s.Action].flat().includes('s3:GetObject'));
    expect(reads.length).toBeGreaterThan(0);
    for (const s of reads) {
      expect(s.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
      expect(JSON.stringify(s.Condition.StringEquals['AWS:SourceArn'])).toContain('Distribution');
    }
    const s3Origin = originOf(distribution().DefaultCacheBehavior);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  });

  it('receives the built page with BucketDeployment, invalidating the distribution', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: Match.anyValue(),
      DistributionId: Match.anyValue(),
      DistributionPaths: ['/*'],
    });
  });
});

describe('the distribution', () => {
  it('serves the page over HTTPS only: every behavior redirects HTTP', () => {
    const config = distribution();
    const behaviors = [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])];
    // The page (default), the API, the public pages' prefixes (issue 29) and the tickets' pages (issue 42).
    expect(behaviors.length).toBe(2 + PAGE_PREFIXES.length + TICKET_PAGE_PATTERNS.length);
    for (const b of behaviors) expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultRootObject).toBe('index.html');
  });

  it('puts the API behind the same distribution under /cal/*: uncached, every method, Authorization and query passed on', () => {
    const api = (distribution().CacheBehaviors as Array<Record<string, any>>).find(
      (b) => b.PathPattern === '/cal/*',
    )!;
    expect(api).toBeDefined();
    expect(api.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(api.CachePolicyId).toBe(CACHING_DISABLED);
    // The managed AllViewerExceptHostHeader policy forwards every viewer header (Authorization
    // included) and every query string, but not Host, which API Gateway needs to be its own.
    expect(api.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    const origin = originOf(api);
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(origin.S3OriginConfig).toBeUndefined();
  });

  it("reaches the stack's own HTTP API, passed in from the parent stack", () => {
    const api = (distribution().CacheBehaviors as Array<Record<string, any>>).find(
      (b) => b.PathPattern === '/cal/*',
    )!;
    const domain = JSON.stringify(originOf(api).DomainName);
    const nested = Object.entries(parent.findResources('AWS::CloudFormation::Stack'))
      .filter(([id]) => id.startsWith('Site'))
      .map(([, r]) => r);
    expect(nested).toHaveLength(1);
    const parameters = JSON.stringify(nested[0]!.Properties.Parameters);
    const httpApiId = Object.keys(parent.findResources('AWS::ApiGatewayV2::Api'))[0]!;
    expect(parameters).toContain(httpApiId);
    expect(domain).toContain('Ref');
  });

  it("passes the viewer's host to the API so that its links point at the site", () => {
    const api = (distribution().CacheBehaviors as Array<Record<string, any>>).find(
      (b) => b.PathPattern === '/cal/*',
    )!;
    const [association] = api.FunctionAssociations as Array<{ EventType: string; FunctionARN: unknown }>;
    expect(association!.EventType).toBe('viewer-request');
    const fn = Object.values(template.findResources('AWS::CloudFront::Function')).find((f) =>
      String(f.Properties.FunctionCode).includes('x-forwarded-host'),
    );
    expect(fn).toBeDefined();
  });

  it('maps /docs to the explorer', () => {
    const fns = Object.values(template.findResources('AWS::CloudFront::Function'));
    expect(fns.some((f) => String(f.Properties.FunctionCode).includes("'/docs/index.html'"))).toBe(true);
  });

  it('is an output of the stack', () => {
    expect(Object.keys(parent.findOutputs('*'))).toContain('SiteUrl');
  });
});

describe('the public pages (issue 29)', () => {
  const behaviors = () =>
    (distribution().CacheBehaviors as Array<Record<string, any>>).filter(
      (b) =>
        b.PathPattern !== '/cal/*' && !(TICKET_PAGE_PATTERNS as readonly string[]).includes(b.PathPattern),
    );
  const pageFn = () =>
    Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) =>
      JSON.stringify(f.Properties.FunctionName ?? '').includes('renderPage'),
    )!;

  it("sends each page prefix to the API's origin, GET and HEAD only, over HTTPS", () => {
    expect(behaviors().map((b) => b.PathPattern)).toEqual(PAGE_PREFIXES.map((p) => `${p}*`));
    const api = (distribution().CacheBehaviors as Array<Record<string, any>>).find(
      (b) => b.PathPattern === '/cal/*',
    )!;
    for (const b of behaviors()) {
      expect(b.TargetOriginId).toBe(api.TargetOriginId);
      expect(b.AllowedMethods.sort()).toEqual(['GET', 'HEAD']);
      expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
      // Nothing of the viewer's reaches the function: the page is the same for everyone.
      expect(b.OriginRequestPolicyId).toBeUndefined();
    }
  });

  it('caches a page by its path alone, for as long as it says (a minute), so that an edit shows within one', () => {
    const ids = new Set(behaviors().map((b) => JSON.stringify(b.CachePolicyId)));
    expect(ids.size).toBe(1);
    const [policy] = Object.values(template.findResources('AWS::CloudFront::CachePolicy'));
    const config = policy!.Properties.CachePolicyConfig;
    expect(config).toMatchObject({ MinTTL: 0, DefaultTTL: PAGE_MAX_AGE_SECONDS });
    expect(config.MaxTTL).toBeLessThanOrEqual(300);
    const key = config.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.QueryStringsConfig.QueryStringBehavior).toBe('none');
    expect(key.HeadersConfig.HeaderBehavior).toBe('none');
    expect(key.CookiesConfig.CookieBehavior).toBe('none');
  });

  it('routes GET and HEAD below each prefix to the pages function', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    // With the tickets' pages' routes (issue 42), which go to a function of their own.
    expect(routes.sort()).toEqual([...PAGE_ROUTE_KEYS, ...TICKET_PAGE_ROUTE_KEYS].sort());
    const integrations = Object.values(template.findResources('AWS::ApiGatewayV2::Integration'));
    expect(integrations).toHaveLength(2);
    expect(integrations.map((i) => i.Properties.IntegrationUri['Fn::GetAtt'][0])).toContain(pageFn()[0]);
  });

  it('reads the table and nothing else: no write, no other service', () => {
    const [fnId, fn] = pageFn();
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(
      template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
    ).flatMap((p) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>);
    const actions = statements.flatMap((st) => [st.Action].flat());
    expect(actions.length).toBeGreaterThan(0);
    expect(
      actions.filter((a) => !/^(dynamodb:(BatchGet|Get|Query|Scan|ConditionCheck|Describe)|xray:)/.test(a)),
    ).toEqual([]);
    expect(fnId).toMatch(/RenderPage/);
  });
});

describe("the tickets' pages (issue 42)", () => {
  const ticketBehaviors = () =>
    (distribution().CacheBehaviors as Array<Record<string, any>>).filter((b) =>
      (TICKET_PAGE_PATTERNS as readonly string[]).includes(b.PathPattern),
    );
  const ticketFn = () =>
    Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) =>
      JSON.stringify(f.Properties.FunctionName ?? '').includes('ticketPages'),
    )!;

  it('route the registration form and the attendee pages to a function of their own', () => {
    expect([...TICKET_PAGE_ROUTE_KEYS].sort()).toEqual([
      'GET /attendee/{proxy+}',
      'HEAD /attendee/{proxy+}',
      'POST /attendee/{proxy+}',
      'POST /event/{proxy+}',
    ]);
    const [fnId] = ticketFn();
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    for (const route of routes.filter((r) => TICKET_PAGE_ROUTE_KEYS.includes(r.Properties.RouteKey))) {
      const target = String(route.Properties.Target['Fn::Join'][1][1].Ref);
      expect(integrations[target]!.Properties.IntegrationUri['Fn::GetAtt'][0]).toBe(fnId);
    }
  });

  it('are never cached and take every method, with the viewer headers and the viewer host, before /event/*', () => {
    const all = (distribution().CacheBehaviors as Array<Record<string, any>>).map((b) => b.PathPattern);
    expect(all.indexOf('/event/*/register/')).toBeLessThan(all.indexOf('/event/*'));
    expect(ticketBehaviors().map((b) => b.PathPattern)).toEqual([...TICKET_PAGE_PATTERNS]);
    for (const b of ticketBehaviors()) {
      expect(b.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      expect(b.CachePolicyId).toBe(CACHING_DISABLED);
      expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect((b.FunctionAssociations as unknown[]).length).toBe(1);
    }
  });

  it('send no Referer from the attendee page (its address holds the secret)', () => {
    const [policy] = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ReferrerPolicy).toEqual({
      ReferrerPolicy: 'no-referrer',
      Override: true,
    });
  });

  it('may write the table: a registration, a cancellation', () => {
    const [, fn] = ticketFn();
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const actions = Object.values(
      template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
    ).flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).flatMap((st) =>
        [st.Action].flat(),
      ),
    );
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
  });
});

describe('the build', () => {
  it('stops synthesis with what to run when the page is not built and the stack is bundled', () => {
    const stack = new Stack(new App(), 'Bundled');
    const httpApi = new HttpApi(stack, 'Api');
    expect(
      () =>
        new Site(stack, 'Site', {
          httpApi,
          distDir: '/nonexistent/web/dist',
          retain: false,
          throttle: { rate: 50, burst: 100, routes: 57 },
        }),
    ).toThrow(/not built.*npm run build:web/);
  });
});

describe('the hosted sign-in', () => {
  const webClient = () => Object.values(template.findResources('AWS::Cognito::UserPoolClient'))[0]!;

  it('gives the page a public OAuth client of the pool: authorization code only, back to the site', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const p = webClient().Properties;
    expect(p.GenerateSecret).toBe(false);
    expect(p.AllowedOAuthFlows).toEqual(['code']);
    expect(p.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(p.AllowedOAuthScopes).toEqual(expect.arrayContaining(['openid']));
    expect(p.SupportedIdentityProviders).toEqual(['COGNITO']);
    // The callback and the sign-out return are the distribution's own HTTPS address.
    for (const urls of [p.CallbackURLs, p.LogoutURLs]) {
      expect(JSON.stringify(urls)).toContain('https://');
      expect(JSON.stringify(urls)).toContain(
        Object.keys(template.findResources('AWS::CloudFront::Distribution'))[0]!,
      );
    }
  });

  it("deploys the page's sign-in settings with the page", () => {
    const deploy = Object.values(template.findResources('Custom::CDKBucketDeployment'))[0]!;
    // The built page, and auth-config.json whose deploy-time values are the pool's domain and the client.
    expect(deploy.Properties.SourceObjectKeys).toHaveLength(2);
    const markers = JSON.stringify(deploy.Properties.SourceMarkers);
    expect(markers).toContain('UserPoolDomain');
    expect(markers).toContain(Object.keys(template.findResources('AWS::Cognito::UserPoolClient'))[0]!);
  });

  it("is trusted by the API without naming it: no function waits for the page's stack (issue 25)", () => {
    const { app } = withSiteUrl();
    const functions = app.templates
      .filter((t) => !t.name.endsWith('/Site'))
      .flatMap((t) => Object.values(t.template.findResources('AWS::Lambda::Function')));
    expect(functions.length).toBeGreaterThan(10);
    // Every client of the stack's own pool is trusted by its issuer (infra/auth.ts): no AUTH_AUDIENCE.
    for (const f of functions) expect(f.Properties.Environment.Variables).not.toHaveProperty('AUTH_AUDIENCE');
    parent.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    expect(Object.keys(parent.findOutputs('*'))).toContain('SignInUrl');
  });
});

/** The app synthesized with these settings, and what its functions' definitions reference of the site. */
function withSiteUrl(context: Record<string, unknown> = { siteUrl: 'https://calendar.example.org/' }) {
  const app = synthApp(context);
  const siteStackIds = Object.keys(app.parent.findResources('AWS::CloudFormation::Stack')).filter((id) =>
    id.startsWith('Site'),
  );
  /** The functions (outside the site's template) whose definition names the site's nested stack. */
  const dependents = app.templates
    .filter((t) => !t.name.endsWith('/Site'))
    .flatMap((t) =>
      Object.entries(t.template.findResources('AWS::Lambda::Function'))
        .filter(([, f]) => /Site/.test(JSON.stringify(f.Properties)))
        .map(([id]) => id),
    );
  /** The parent's parameters to each family's stack that come from the site's stack. */
  const passedFromSite = Object.values(app.parent.findResources('AWS::CloudFormation::Stack'))
    .map((n) => JSON.stringify(n.Properties.Parameters ?? {}))
    .filter((p) => siteStackIds.some((id) => p.includes(id)));
  return { app, siteStackIds, dependents, passedFromSite };
}

describe('the site is optional (issue 25)', () => {
  it('is left out with -c site=false: no nested stack, no CloudFront, the API whole', () => {
    const { app, siteStackIds } = withSiteUrl({ site: 'false' });
    expect(siteStackIds).toEqual([]);
    expect(Object.keys(app.resources('AWS::CloudFront::Distribution'))).toEqual([]);
    expect(Object.keys(app.parent.findOutputs('*'))).not.toContain('SiteUrl');
    expect(Object.keys(app.parent.findOutputs('*'))).toEqual(
      expect.arrayContaining(['ApiUrl', 'UserPoolId']),
    );
    // Every operation's function, `$default`'s, the extend job's and the finisher of series writes'
    // (issue 27), the webhook engine's dispatcher and deliverer (issue 28) and the import re-sync's
    // (issue 30), the scheduled publication's (issue 39) and the attendees' mail job's (issue 42): none
    // of them the page's.
    expect(Object.keys(app.resources('AWS::Lambda::Function'))).toHaveLength(operations.length + 8);
  });

  it('takes SITE_URL from siteUrl when set, so that no function depends on the site stack', () => {
    const { app, dependents, passedFromSite } = withSiteUrl();
    expect(dependents).toEqual([]);
    expect(passedFromSite).toEqual([]);
    for (const name of app.functions.keys())
      expect(app.fn(name).resource.Properties.Environment.Variables.SITE_URL, name).toBe(
        'https://calendar.example.org',
      );
  });

  it("defaults SITE_URL to the API's own address with the site too: no function waits on the site's stack (issue 38)", () => {
    // The default cdk.json: the site on, no siteUrl (this changed on purpose: it was the distribution's).
    const { app, dependents, passedFromSite } = withSiteUrl({});
    expect(app.stack.site).toBeDefined();
    expect(dependents).toEqual([]);
    expect(passedFromSite).toEqual([]);
    for (const name of app.functions.keys()) {
      const value = JSON.stringify(app.fn(name).resource.Properties.Environment.Variables.SITE_URL);
      expect(value, name).toMatch(/ApiHttpApi\w*.*ApiEndpoint/);
      expect(value, name).not.toMatch(/Distribution/);
    }
    // Every nested stack but the site's own takes nothing from the site's stack.
    const fromSite = Object.entries(app.parent.findResources('AWS::CloudFormation::Stack'))
      .filter(([id]) => !id.startsWith('Site'))
      .filter(([, n]) => /"Site\w*\.Outputs/.test(JSON.stringify(n)))
      .map(([id]) => id);
    expect(fromSite).toEqual([]);
    const warnings = Annotations.fromStack(app.stack).findWarning('*', Match.stringLikeRegexp('siteUrl'));
    expect(warnings.map((w) => String(w.entry.data))).toEqual([
      expect.stringMatching(/not set.*API's own address.*changes them all.*before the first deploy/),
    ]);
  });

  it('requires siteUrl with stage=prod, at synth', () => {
    expect(() => synthApp({ stage: 'prod' })).toThrow(/"siteUrl" is required with stage=prod/);
    expect(() => synthApp({ stage: 'prod', site: false })).toThrow(/"siteUrl" is required/);
  });

  it("defaults SITE_URL to the API's address without the site", () => {
    const app = synthApp({ site: false });
    for (const name of app.functions.keys())
      expect(JSON.stringify(app.fn(name).resource.Properties.Environment.Variables.SITE_URL), name).toMatch(
        /ApiHttpApi.*ApiEndpoint/,
      );
  });

  it('refuses a siteUrl that is not an absolute http(s) URL', () => {
    expect(() => synthApp({ siteUrl: 'calendar.example.org' })).toThrow(/siteUrl.*absolute URL/);
    expect(() => synthApp({ siteUrl: 'ftp://calendar.example.org' })).toThrow(/siteUrl.*http/);
  });
});

describe('what browsers keep (issue 25)', () => {
  it('deploys the page with Cache-Control: no-cache, so a deploy is never hidden by a cached app.js', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
  });
});

describe("the distribution's cdk-nag acknowledgement (issue 25)", () => {
  it('states what the stage throttle bounds: each route at the rate, the total as their sum', () => {
    const routes = Object.keys(synthApp().resources('AWS::ApiGatewayV2::Route')).length;
    expect(throttleReason({ rate: 50, burst: 100, routes })).toMatch(
      new RegExp(
        `each of its ${routes} routes at 50 requests per second \\(burst 100\\), up to ${routes * 50} per second`,
      ),
    );
    // The reason the distribution carries is that text, from the settings the stage has.
    const stack = synthApp({ throttleRate: 7 }).stack;
    const acknowledged = JSON.stringify(stack.site!.distribution.node.metadata);
    expect(acknowledged).toContain(`each of its ${routes} routes at 7 requests per second`);
  });
});
