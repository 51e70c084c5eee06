/**
 * What the account module (account.ts) reads from a token: the one place the page decodes a token's
 * payload (the token is the API's; its payload only labels the page).
 */
export interface Account {
  role?: string;
  sub?: string;
}

/** The account a token names: null without one, no labels when its payload cannot be read. */
export function accountOf(jwt: string | null): Account | null {
  if (!jwt) return null;
  try {
    const payload = JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<
      string,
      unknown
    >;
    const groups = payload['cognito:groups'];
    const role =
      (payload['cal:role'] as string | undefined) ?? (Array.isArray(groups) ? String(groups[0]) : undefined);
    return { role, sub: payload.sub as string | undefined };
  } catch {
    return {};
  }
}

/** What the page says of the account. */
export const accountLabel = (a: Account | null): string =>
  a ? `Signed in${a.role ? ` as ${a.role}` : ''}${a.sub ? ` (${a.sub})` : ''}` : 'Not signed in';

/** The token in pasted text (a `Bearer ` prefix allowed), or null when it is not three dotted parts. */
export function pastedToken(text: string): string | null {
  const t = text.trim().replace(/^Bearer\s+/i, '');
  return t.split('.').length === 3 ? t : null;
}

/**
 * Whether the account may check in and list an event's attendees, as the API decides it
 * (shared/domain/tickets.ts managesAttendees): editors and administrators, and the event's own author
 * from contributor up. The page only chooses what to offer; the API stays the judge.
 */
export function managesAttendees(a: Account | null, eventAuthor: string | undefined): boolean {
  const role = a?.role ?? '';
  if (role === 'editor' || role === 'administrator') return true;
  return ['contributor', 'author'].includes(role) && !!a?.sub && a.sub === eventAuthor;
}
