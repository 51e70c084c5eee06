import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { describe, expect, it } from 'vitest';
import { Site } from '../../infra/site';
import { CalEventsStack } from '../../infra/stack';

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
    expect(behaviors.length).toBe(2);
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
    const nested = Object.values(parent.findResources('AWS::CloudFormation::Stack'));
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

describe('the build', () => {
  it('stops synthesis with what to run when the page is not built and the stack is bundled', () => {
    const stack = new Stack(new App(), 'Bundled');
    const httpApi = new HttpApi(stack, 'Api');
    expect(
      () => new Site(stack, 'Site', { httpApi, distDir: '/nonexistent/web/dist', retain: false }),
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

  it("is trusted by the API: every function accepts the page's client and the pool's first client", () => {
    const clientOutput = Object.entries(template.toJSON().Outputs ?? {}).find(([, o]: [string, any]) =>
      JSON.stringify(o.Value).includes(
        Object.keys(template.findResources('AWS::Cognito::UserPoolClient'))[0]!,
      ),
    );
    expect(clientOutput).toBeDefined();
    const fns = Object.values(parent.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.AUTH_AUDIENCE,
    );
    expect(fns.length).toBeGreaterThan(10);
    for (const f of fns) {
      const audience = JSON.stringify(f.Properties.Environment.Variables.AUTH_AUDIENCE);
      expect(audience).toContain('Fn::Join');
      expect(audience).toContain(clientOutput![0]);
    }
    parent.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    expect(Object.keys(parent.findOutputs('*'))).toContain('SignInUrl');
  });
});
