/** Roles in ascending order of power (decisions §3). */
export const ROLES = ['subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

/** The caller, as its token names it. */
export interface User {
  sub: string;
  role: Role;
}

export const rank = (role: Role) => ROLES.indexOf(role);
export const atLeast = (user: User | null, role: Role) => user !== null && rank(user.role) >= rank(role);
