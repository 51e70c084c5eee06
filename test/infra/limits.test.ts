import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { operations } from '../../shared/contracts';
import { synth } from './synth';

/**
 * What CloudFormation, Lambda and IAM refuse at deploy time, checked at synthesis (issue 25): no AWS
 * account is needed to see a template grow past what a deploy accepts.
 */

/** CloudFormation allows 500 resources a template; this leaves room for a release's worth of growth. */
const MAX_RESOURCES = 400;
/** Lambda: a function's environment variables, names and values together. */
const MAX_ENVIRONMENT_BYTES = 4096;
/** IAM: a role's inline policies together, whitespace not counted. */
const MAX_INLINE_POLICY_CHARS = 10_240;

/**
 * A value as long as it can be once deployed: pseudo parameters at their longest (a GovCloud
 * partition, the longest region names), any other deploy-time value (a name, an ARN, a URL passed from
 * another stack) as 128 characters.
 */
function worstCase(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(worstCase);
  const v = value as Record<string, unknown>;
  if ('Ref' in v) {
    const pseudo: Record<string, string> = {
      'AWS::Partition': 'aws-us-gov',
      'AWS::Region': 'ap-southeast-2',
      'AWS::AccountId': '123456789012',
      'AWS::URLSuffix': 'amazonaws.com.cn',
    };
    return pseudo[v.Ref as string] ?? 'x'.repeat(128);
  }
  if ('Fn::GetAtt' in v || 'Fn::ImportValue' in v) return 'x'.repeat(128);
  if ('Fn::Join' in v) {
    const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => String(worstCase(p))).join(separator);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, worstCase(x)]));
}

const dev = synth();
const prodOidc = synth({
  stage: 'prod',
  siteUrl: 'https://calendar.example.org',
  oidcIssuer: 'https://issuer.example.com',
  oidcJwksUrl: 'https://issuer.example.com/jwks.json',
});

describe.each([
  ['dev', dev],
  ['prod with an external issuer', prodOidc],
])('the %s app within what a deploy accepts', (_label, app) => {
  it(`keeps every template at or below ${MAX_RESOURCES} resources`, () => {
    for (const { name, template } of app.templates) {
      const count = Object.keys(template.toJSON().Resources).length;
      expect(count, name).toBeLessThanOrEqual(MAX_RESOURCES);
    }
  });

  it(`keeps every function's environment under ${MAX_ENVIRONMENT_BYTES} bytes`, () => {
    for (const name of app.functions.keys()) {
      const variables = app.fn(name).resource.Properties.Environment.Variables as Record<string, unknown>;
      const size = Object.entries(variables).reduce(
        (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(String(worstCase(v))),
        0,
      );
      expect(size, name).toBeLessThan(MAX_ENVIRONMENT_BYTES);
    }
  });

  it(`keeps every role's inline policies under ${MAX_INLINE_POLICY_CHARS} characters`, () => {
    for (const { name, template } of app.templates) {
      for (const [roleId, role] of Object.entries(template.findResources('AWS::IAM::Role'))) {
        const attached = template.findResources('AWS::IAM::Policy', {
          Properties: { Roles: [{ Ref: roleId }] },
        });
        const documents = [
          ...((role.Properties.Policies ?? []) as Array<{ PolicyDocument: unknown }>).map(
            (p) => p.PolicyDocument,
          ),
          ...Object.values(attached).map((p) => p.Properties.PolicyDocument),
        ];
        const size = documents.reduce<number>((n, d) => n + JSON.stringify(worstCase(d)).length, 0);
        expect(size, `${name}/${roleId}`).toBeLessThanOrEqual(MAX_INLINE_POLICY_CHARS);
      }
    }
  });
});

describe('room to grow', () => {
  const count = (template: Template) => Object.keys(template.toJSON().Resources).length;
  const nestedIn = (s: ReturnType<typeof synth>) =>
    Object.keys(s.parent.findResources('AWS::CloudFormation::Stack')).length;

  it("keeps the service's own template the same size whatever the number of operations in a family", () => {
    const fewer = synth(
      {},
      operations.filter((op) => op.operationId !== 'listEvents' && op.operationId !== 'getVenue'),
    );

    // Two operations fewer: the same families, the same parent template, with only the `$default`
    // function's invoke grant shorter; the families' templates hold what each operation adds.
    expect(nestedIn(fewer)).toBe(nestedIn(dev));
    expect(count(fewer.parent)).toBe(count(dev.parent));
  });

  it('adds one nested stack, not its resources, to the parent for a new family', () => {
    const withoutChanges = synth(
      {},
      operations.filter((op) => !op.handler.startsWith('functions/changes/')),
    );

    expect(nestedIn(dev) - nestedIn(withoutChanges)).toBe(1);
    expect(count(dev.parent) - count(withoutChanges.parent)).toBe(1);
  });

  it("spends at most ten resources of its family's template on an operation, so a family holds 35 and more", () => {
    for (const [family, stack] of dev.stack.families) {
      const template = dev.templates.find((t) => t.stack === stack)!.template;
      const functions = stack.functions.size;
      // The family's throttle alarms are shared by ten functions: counted apart.
      const perOperation = (count(template) - Math.ceil(functions / 10)) / functions;
      expect(perOperation, family).toBeLessThanOrEqual(10);
    }
  });
});
