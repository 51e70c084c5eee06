import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import { AccountRecovery, UserPool, type UserPoolClient, type UserPoolDomain } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ROLES } from '../shared/domain/roles';
import type { OidcSettings } from './settings';
import { removalPolicy } from './removal';

export interface AuthProps {
  /** An external OIDC issuer; without one the stack runs its own Cognito user pool. */
  oidc?: OidcSettings;
  retain: boolean;
  /** Cognito refuses to delete the pool, whoever asks (settings.deletionProtection). */
  protect: boolean;
  /** The hosted sign-in's domain prefix (`<prefix>.auth.<region>.amazoncognito.com`), globally unique. */
  domainPrefix?: string;
}

/**
 * The token issuer the functions trust. Tokens are verified inside the Lambdas, not by an API Gateway
 * authorizer: anonymous reads are allowed on the same routes as writes, and decisions §3 requires
 * authentication to be checked before validation and authorization, with the service's own error codes.
 */
export class Auth extends Construct {
  /** AUTH_* variables for shared/http/auth.ts. */
  readonly environment: Record<string, string>;
  readonly userPool?: UserPool;
  readonly userPoolClient?: UserPoolClient;
  /** Cognito's hosted sign-in (managed login) for the calendar page's OAuth client (infra/site.ts). */
  readonly domain?: UserPoolDomain;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    if (props.oidc) {
      const { issuer, jwksUrl, audience } = props.oidc;
      this.environment = {
        AUTH_ISSUER: issuer,
        AUTH_JWKS_URL: jwksUrl,
        ...(audience ? { AUTH_AUDIENCE: audience } : {}),
      };
      return;
    }
    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      removalPolicy: removalPolicy(props.retain),
      deletionProtection: props.protect,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is left to each deployment: the pool has no self sign-up (administrators create users), and ' +
        'scripts and integrations sign in to it without a second factor.',
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Essentials plan is enough for a pool of staff accounts created by administrators; Plus (threat ' +
        'protection) is billed per user and can be chosen per deployment.',
    });
    // The scripts' client signs in with SRP only: no OAuth flows, so no callback URL to keep (CDK would
    // otherwise enable the code and implicit grants with an example.com callback).
    this.userPoolClient = this.userPool.addClient('Client', {
      authFlows: { userSrp: true },
      generateSecret: false,
      disableOAuth: true,
    });
    // Roles travel in `cognito:groups`; precedence puts the most powerful first.
    [...ROLES].reverse().forEach((role, precedence) => {
      this.userPool!.addGroup(`Group-${role}`, { groupName: role, precedence });
    });
    // The prefix must be unique in the region: by default the stack's name and the account's ID.
    const domainPrefix =
      props.domainPrefix ?? Fn.join('-', [Stack.of(this).stackName.toLowerCase(), Stack.of(this).account]);
    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix } });
    const issuer = this.userPool.userPoolProviderUrl;
    // No AUTH_AUDIENCE: the issuer is this stack's own pool, whose every app client is this stack's (the
    // scripts' above, the page's in infra/site.ts) and whose users only administrators create, so the
    // issuer already says the token is for this API. Naming the page's client here would make every
    // function wait for the page's stack, whose client needs the distribution's address (issue 25).
    this.environment = {
      AUTH_ISSUER: issuer,
      AUTH_JWKS_URL: `${issuer}/.well-known/jwks.json`,
    };
  }
}
