/**
 * What the calendar page reads from /auth-config.json to sign in (web/src/signin.ts): written by the
 * CDK stack next to the deployed page (infra/site.ts) and served by the local stack (local/oauth.ts).
 */
export interface SignInConfig {
  authorizeUrl: string;
  tokenUrl: string;
  /** Ends the sign-in's own session (Cognito's /logout); absent where there is none. */
  logoutUrl?: string;
  clientId: string;
  scope: string;
  /** Who signs the user in, for the button: "Cognito", "the local stack". */
  provider: string;
}
