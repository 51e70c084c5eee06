import { afterAll, beforeAll, vi } from 'vitest';
import type { Role } from '../../shared/contracts/types';
import { type Stack, signToken, startStack } from './stack';

/** A token to sign for the file: a role (subject `user-<role>`), or a role and a subject. */
export type TokenSpec = Role | readonly [role: Role, sub: string];

export interface UseStackOptions<T extends Record<string, TokenSpec>> {
  /** Fixes the clock (Date only) at this instant from before the stack starts until after it stops. */
  now?: Date;
  /** The tokens the file's tests use, by name. */
  tokens?: T;
}

export interface StackFixture<T extends Record<string, TokenSpec>> {
  /** The file's stack. It runs from the first beforeAll on: use it in tests and hooks, not while collecting. */
  api: Stack;
  /** The tokens asked for, by the names given, signed at the fixed clock when there is one. */
  tokens: { [K in keyof T]: string };
}

/**
 * The integration preamble of a test file, in one call at the top of the file (before its own hooks):
 * starts the local stack (fresh table, gateway on a free port) in beforeAll, stops it in afterAll,
 * optionally fixes the clock around it, and signs the tokens the tests use.
 *
 *   const { api, tokens: { editor } } = await useStack({ tokens: { editor: 'editor' } });
 *
 * Tokens need only the local issuer's secret, not the stack, so they are signed while the file loads
 * and can be plain constants. With `now` they are signed at that instant, as the clock the handlers see.
 */
export async function useStack<const T extends Record<string, TokenSpec> = Record<never, TokenSpec>>(
  o: UseStackOptions<T> = {},
): Promise<StackFixture<T>> {
  let current: Stack | undefined;
  const signed: Array<{ name: string; role: Role; sub: string; token: string }> = [];
  const fixClock = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(o.now!);
  };

  // Registered before anything is awaited, so these run before (and after) the file's own hooks.
  beforeAll(async () => {
    if (o.now) fixClock();
    current = await startStack({ signed });
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
    if (o.now) vi.useRealTimers();
  });

  if (o.now) fixClock();
  try {
    for (const [name, spec] of Object.entries(o.tokens ?? {})) {
      const [role, sub] = typeof spec === 'string' ? [spec as Role, `user-${spec}`] : spec;
      signed.push({ name, role, sub, token: await signToken(role, sub) });
    }
  } finally {
    if (o.now) vi.useRealTimers();
  }

  const live = (): Stack => {
    if (!current)
      throw new Error('The stack runs from beforeAll to afterAll: use api inside tests and hooks.');
    return current;
  };
  // Every property is read from the running stack when used, so `api` can be taken before it starts.
  const api = new Proxy({} as Stack, {
    get: (_target, prop) => Reflect.get(live(), prop),
    has: (_target, prop) => Reflect.has(live(), prop),
  });
  const tokens = Object.fromEntries(signed.map((s) => [s.name, s.token])) as { [K in keyof T]: string };
  return { api, tokens };
}
