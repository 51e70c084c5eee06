import {
  type ArgList,
  type Args,
  CalApiError,
  createClient,
  type Item,
  type ListOperationId,
} from '../../client/src';
import { API_ROOT } from './api-types';

export {
  API_ROOT,
  type Attendee,
  type CalEvent,
  type EventQuery,
  type Organizer,
  organizersOf,
  type Term,
  type Ticket,
  TICKETS_ROOT,
  type Venue,
  venuesOf,
} from './api-types';

/**
 * The page's only way to its data: the public API on the same origin, through the typed client
 * (client/), as any client would call it. The client follows `next_rest_url` below this origin's API
 * root, so the page keeps working when the API builds links from another host name (a CDN).
 */

const TOKEN_KEY = 'cal-token';

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** The client of the page, sending the tab's token (when signed in) with every call. */
export const cal = createClient({ baseUrl: API_ROOT, token: () => token.get() });

export { CalApiError as ApiError };

/** The message for each parameter an error names: `{field: reason}` (missing ones say so). */
export function fieldMessages(error: CalApiError): Record<string, string> {
  const { params, details } = error.body.data ?? {};
  if (Array.isArray(params)) return Object.fromEntries(params.map((p) => [p, `${p} is required.`]));
  const out: Record<string, string> = { ...params };
  for (const [name, d] of Object.entries(details ?? {})) out[name] ??= d.message;
  return out;
}

/** An error of the page's own (the network), in the API's envelope, to show like the API's. */
export const pageError = (message: string) =>
  new CalApiError(0, { code: 'network', message, data: { status: 0 } }, new Headers());

/** Every item of a list (stopping after `max`, more than the page ever draws). */
export async function listAll<K extends ListOperationId>(
  operation: K,
  args: Args<K>,
  max = 2000,
): Promise<Array<Item<K>>> {
  const out: Array<Item<K>> = [];
  for await (const item of cal.items(operation, ...([args] as ArgList<K>))) if (out.push(item) >= max) break;
  return out;
}
