import type { User } from '../domain/roles';

/** Who is asking, and the API root their URLs are built from (`https://host/cal/events/v1`). */
export interface Caller {
  user: User | null;
  root: string;
}

/** A caller of a write: writes always have an authenticated user. */
export interface Writer extends Caller {
  user: User;
}

/** A record named by its ID or by its slug. */
export type Ref = { id: number } | { slug: string };
