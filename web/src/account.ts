import { type Account, accountLabel, accountOf, pastedToken } from './account-claims';
import { token } from './api';
import { renderFilters } from './filter-panel';
import { $, type PageContext } from './page-dom';
import type { Page } from './page-state';
import {
  beginSignIn,
  type Callback,
  completeSignIn,
  loadSignInConfig,
  type SignInConfig,
  signOutUrl,
  takeCallback,
} from './signin';

/**
 * Who is signed in: the one module that reads the tab's token for the page (its payload decoded by
 * account-claims.ts). The rest of the page asks the state's `account` (page-state.ts). Signing in by
 * pasting a token or through the sign-in page (signin.ts).
 */

/** The account as the tab's token says now. */
export const readAccount = (): Account | null => accountOf(token.get());

/** The sign-in's answer, taken off the URL before the filters are read from it (signin.ts). */
export const takeSignInCallback = (): Callback | null => takeCallback();

/** Draws the account's part of the page: who, the buttons, what only the signed-in see. */
export function renderAccount(s: Page): void {
  const signedIn = s.account !== null;
  $('who').textContent = accountLabel(s.account);
  $('sign-in').hidden = signedIn;
  $('sign-out').hidden = !signedIn;
  $('new-event').hidden = !signedIn;
  $('f-trash-field').hidden = !signedIn;
}

/** Reads the token again (it was set or cleared): the state's account follows it. */
const refresh = (ctx: PageContext) => ctx.page.update({ account: readAccount() });

export function signOut(ctx: PageContext, message = 'Signed out.'): void {
  token.clear();
  refresh(ctx);
  ctx.notice(message);
  ctx.page.update({ trash: false });
  renderFilters(ctx.page.get());
  ctx.calendar().refetchEvents();
}

/**
 * Wires the sign-in dialog (a pasted token, or the sign-in page where there is one) and the sign-out;
 * `finish` offers the sign-in page once its configuration is read and completes a sign-in that came
 * back to this page.
 */
export function setUpAccount(ctx: PageContext): { finish(callback: Callback | null): Promise<void> } {
  let config: SignInConfig | null = null;
  $('sign-in').addEventListener('click', () => {
    $('token-error').hidden = true;
    $<HTMLDialogElement>('signin').showModal();
    $(config ? 'signin-provider' : 'token').focus();
  });
  $('signin-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const t = pastedToken($<HTMLTextAreaElement>('token').value);
    if (!t) {
      const err = $('token-error');
      err.textContent = 'That is not a token: it should be three parts separated by dots.';
      err.hidden = false;
      $('token').setAttribute('aria-describedby', 'token-error');
      return;
    }
    token.set(t);
    $<HTMLDialogElement>('signin').close();
    refresh(ctx);
    ctx.notice('Signed in.');
    ctx.calendar().refetchEvents();
  });
  $('signin-provider').addEventListener('click', () => {
    if (config) void beginSignIn(config);
  });
  $('sign-out').addEventListener('click', () => {
    signOut(ctx);
    const away = signOutUrl(config);
    if (away) location.assign(away);
  });
  return {
    async finish(callback) {
      config = await loadSignInConfig();
      $('signin-hosted').hidden = !config;
      if (config) $('signin-provider').textContent = `Sign in with ${config.provider}`;
      if (!callback) return;
      ctx.notice(await completeSignIn(config, callback).catch((e: Error) => `Sign-in failed: ${e.message}`));
      refresh(ctx);
      ctx.calendar().refetchEvents();
    },
  };
}
